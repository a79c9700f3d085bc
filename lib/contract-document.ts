/** The bundled contract the mock and the server serve, `generated/openapi.json`, read once at start-up. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const contractPath = fileURLToPath(new URL('../generated/openapi.json', import.meta.url));

export const contractDocument: Record<string, unknown> = JSON.parse(readFileSync(contractPath, 'utf8'));

/** Follows local `$ref`s (`#/components/…`) from `node` to the object they name, in `document` (the bundle by default). */
export function resolveReference<T>(node: unknown, document: Record<string, unknown> = contractDocument): T {
  let current = node;
  while (current && typeof current === 'object' && typeof (current as { $ref?: unknown }).$ref === 'string') {
    const pointer = (current as { $ref: string }).$ref.replace(/^#\//, '').split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = pointer.reduce<unknown>((parent, key) => (parent as Record<string, unknown>)[key], document);
  }
  return current as T;
}
