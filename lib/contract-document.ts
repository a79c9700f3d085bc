/** The bundled contract the mock serves, `generated/openapi.json`, read once at start-up. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const contractPath = fileURLToPath(new URL('../generated/openapi.json', import.meta.url));

export const contractDocument: Record<string, unknown> = JSON.parse(readFileSync(contractPath, 'utf8'));
