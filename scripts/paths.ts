/** Folders and files of the project, resolved from this file so scripts run from any directory. */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));
export const contractRoot = join(projectRoot, 'openapi', 'openapi.yaml');
export const generatedDir = join(projectRoot, 'generated');
export const bundlePath = join(generatedDir, 'openapi.json');
