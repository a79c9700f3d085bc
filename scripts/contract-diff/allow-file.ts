/**
 * The checked-in list of breaking changes allowed within /v1, `openapi/breaking-changes-allowed.yaml`
 * beside the contract's root: one entry per operation and kind of change, optionally narrowed to
 * places, each with the reason it is allowed.
 *
 * ```yaml
 * allowed:
 *   - operation: crawlWebsite          # an operationId (a webhook's too)
 *     change: request-field-changed    # a kind the gate prints in brackets
 *     at: [body.goal, body.url]        # optional: these places only (one string or a list)
 *     reason: Bounds the OWASP lint asked for; longer values were never served.
 * ```
 */
import { readFile } from 'node:fs/promises';
import { parseYaml } from '@redocly/openapi-core';
import { UsageError } from '../contract-problems.ts';
import { changeKinds, type ChangeKind, type ContractChange } from './change.ts';

export interface AllowEntry {
  readonly operation: string;
  readonly change: ChangeKind;
  /** The places it allows; undefined: every change of that kind in the operation. */
  readonly at: readonly string[] | undefined;
  readonly reason: string;
}

const entryKeys = ['operation', 'change', 'at', 'reason'];

function entryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'is not a mapping of operation, change, at, reason';
  const record = entry as Record<string, unknown>;
  const unknownKey = Object.keys(record).find((key) => !entryKeys.includes(key));
  if (unknownKey) return `has an unknown key \`${unknownKey}\` (keys: ${entryKeys.join(', ')})`;
  if (typeof record.operation !== 'string' || !record.operation) return 'names no `operation` (an operationId)';
  if (!changeKinds.includes(record.change as ChangeKind)) return `has \`change: ${String(record.change)}\`, not a kind of change (${changeKinds.join(', ')})`;
  const at = record.at;
  if (at !== undefined && typeof at !== 'string' && !(Array.isArray(at) && at.length > 0 && at.every((place) => typeof place === 'string'))) {
    return 'has an `at` that is neither a place nor a list of places';
  }
  if (typeof record.reason !== 'string' || !record.reason.trim()) return 'gives no `reason`: every allowed breaking change says why';
  return undefined;
}

/** The entries of the allow file at `file`; none when it does not exist. A malformed file is a UsageError naming the entry. */
export async function readAllowFile(file: string): Promise<AllowEntry[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return [];
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new UsageError(`${file}: not YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const allowed = (document as { allowed?: unknown } | null)?.allowed ?? [];
  if (!Array.isArray(allowed)) throw new UsageError(`${file}: \`allowed\` must be a list of entries`);
  return allowed.map((entry: unknown, index) => {
    const problem = entryProblem(entry);
    if (problem) throw new UsageError(`${file}: entry ${index + 1} ${problem}`);
    const { operation, change, at, reason } = entry as { operation: string; change: ChangeKind; at?: string | string[]; reason: string };
    return { operation, change, at: at === undefined ? undefined : [at].flat(), reason: reason.trim() };
  });
}

/** Whether `entry` allows `change`: the same operation and kind, and its place among `at` when `at` is given. */
export function allows(entry: AllowEntry, change: ContractChange): boolean {
  return entry.operation === change.operation.operationId && entry.change === change.kind && (entry.at === undefined || entry.at.includes(change.at));
}
