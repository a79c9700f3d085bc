/** The bundled contract the mock serves, `generated/openapi.json`, read once at start-up. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const contractPath = fileURLToPath(new URL('../generated/openapi.json', import.meta.url));

export const contractDocument: Record<string, unknown> = JSON.parse(readFileSync(contractPath, 'utf8'));

/** Follows local `$ref`s (`#/components/...`) of the bundle (or of `document`) until a node that is not a reference. */
export function resolveRef<T = Record<string, unknown>>(node: unknown, document: Record<string, unknown> = contractDocument): T {
  let current = node as { $ref?: unknown };
  while (current && typeof current.$ref === 'string') {
    current = (current.$ref as string).slice(2).split('/')
      .reduce<any>((parent, part) => parent[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  }
  return current as T;
}
