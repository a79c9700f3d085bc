/**
 * Names what each of api-smart-diff's differences is about, from the JSON path it gives: the
 * operation, the kind of change (a stable id for the allow file) and where in the operation. The
 * library's own classification comes along (`breaking` when it says so); the corrections and the
 * versioning policy come later (policy.ts).
 */
import type { ChangeKind, ContractChange, OperationRef } from './change.ts';
import { nodeAt, resolved, webhookPathPrefix, type Diff } from './compare.ts';
import { correctedBreaking } from './corrections.ts';

type Segment = string | number;
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The two prepared documents a diff's `before` and `after` come from. */
export interface ComparedDocuments {
  readonly base: unknown;
  readonly head: unknown;
}

const show = (value: unknown): string => (value === undefined ? 'none' : JSON.stringify(value));

function operationRef(documents: ComparedDocuments, path: string, method: string): OperationRef {
  const operation = (nodeAt(documents.head, ['paths', path, method]) ?? nodeAt(documents.base, ['paths', path, method])) as
    | { operationId?: string }
    | undefined;
  const label = path.startsWith(webhookPathPrefix) ? `webhook ${path.slice(webhookPathPrefix.length)}` : `${method.toUpperCase()} ${path}`;
  return { operationId: operation?.operationId ?? label, label };
}

/** The `deprecated` mark and `x-sunset` date of a removed node, as the base had them. */
function deprecation(documents: ComparedDocuments, path: readonly Segment[]): ContractChange['deprecatedInBase'] {
  const node = nodeAt(documents.base, path) as { deprecated?: boolean; 'x-sunset'?: unknown } | undefined;
  if (node?.deprecated !== true) return undefined;
  const sunset = node['x-sunset'];
  return { sunset: typeof sunset === 'string' && /^\d{4}-\d{2}-\d{2}/.test(sunset) ? sunset.slice(0, 10) : undefined };
}

/** What a change inside a schema is: a field added, removed, required…, or a keyword changed. */
interface SchemaChange {
  readonly what: 'added' | 'removed' | 'required' | 'optional' | 'deprecated' | 'enum-value-added' | 'enum-value-removed' | 'changed' | 'extension';
  readonly field: string;
  readonly detail: string;
}

function schemaChange(diff: Diff, path: readonly Segment[]): SchemaChange {
  const field: string[] = [];
  for (let i = 0; i < path.length; i += 1) {
    const segment = path[i];
    const last = i === path.length - 1;
    if (segment === 'properties' && i + 1 < path.length) {
      field.push(String(path[i + 1]));
      if (i + 2 === path.length) {
        if (diff.action === 'add' || diff.action === 'remove') return { what: diff.action === 'add' ? 'added' : 'removed', field: field.join('.'), detail: '' };
        return { what: 'changed', field: field.join('.'), detail: `${show(diff.before)} → ${show(diff.after)}` };
      }
      i += 1;
    } else if (segment === 'items' && !last) {
      if (field.length > 0) field[field.length - 1] += '[]';
      else field.push('[]');
    } else if ((segment === 'allOf' || segment === 'anyOf' || segment === 'oneOf') && i + 2 < path.length) {
      i += 1;
    } else if (segment === 'required' && i + 1 === path.length - 1 && diff.action !== 'replace') {
      const name = String(diff.action === 'add' ? diff.after : diff.before);
      return { what: diff.action === 'add' ? 'required' : 'optional', field: [...field, name].join('.'), detail: '' };
    } else if (segment === 'enum' && i + 1 === path.length - 1 && diff.action !== 'replace') {
      const value = diff.action === 'add' ? diff.after : diff.before;
      return { what: diff.action === 'add' ? 'enum-value-added' : 'enum-value-removed', field: field.join('.'), detail: `value ${show(value)}` };
    } else if (segment === 'deprecated' && last) {
      return { what: 'deprecated', field: field.join('.'), detail: diff.after === true ? 'marked deprecated' : 'no longer deprecated' };
    } else if (typeof segment === 'string' && segment.startsWith('x-')) {
      return { what: 'extension', field: field.join('.'), detail: '' };
    } else {
      const keyword = path.slice(i).join('.');
      return { what: 'changed', field: field.join('.'), detail: `${keyword} ${show(diff.before)} → ${show(diff.after)}` };
    }
  }
  return { what: 'changed', field: field.join('.'), detail: `${show(diff.before)} → ${show(diff.after)}` };
}

/**
 * The changes a library diff is about; none for what the gate does not report: components (each is
 * reported where an operation uses it), document metadata, and `x-` extensions inside schemas
 * (annotations to a client: no validator reads them).
 */
export function locate(diff: Diff, documents: ComparedDocuments): ContractChange[] {
  const [root, pathKey, method, ...rest] = diff.path;
  if (root !== 'paths' || typeof pathKey !== 'string') return [];
  const breaking = correctedBreaking(diff, documents) ?? diff.type === 'breaking';
  if (method === undefined) {
    // A whole path added or removed: one change per operation it holds.
    const item = (diff.action === 'add' ? diff.after : diff.before) as Record<string, unknown>;
    const kind: ChangeKind = diff.action === 'add' ? 'operation-added' : 'operation-removed';
    return Object.keys(item ?? {})
      .filter((key) => methods.includes(key))
      .map((key) => ({
        operation: operationRef(documents, pathKey, key),
        kind,
        at: '',
        detail: '',
        breaking,
        deprecatedInBase: kind === 'operation-removed' ? deprecation(documents, ['paths', pathKey, key]) : undefined,
      }));
  }
  if (typeof method !== 'string' || !methods.includes(method)) return [];
  const operation = operationRef(documents, pathKey, method);
  const operationPath: Segment[] = ['paths', pathKey, method];
  const change = (kind: ChangeKind, at: string, detail: string, removedPath?: Segment[]): ContractChange[] => [
    { operation, kind, at, detail, breaking, deprecatedInBase: removedPath ? deprecation(documents, removedPath) : undefined },
  ];
  const [area, key, ...inner] = rest;
  if (area === undefined) {
    return diff.action === 'add' ? change('operation-added', '', '') : change('operation-removed', '', '', operationPath);
  }
  if (area === 'deprecated') return change('operation-deprecated', '', diff.after === true ? 'marked deprecated' : 'no longer deprecated');
  if (area === 'security') return change('operation-security-changed', '', `security ${rest.slice(1).join('.')} ${show(diff.before)} → ${show(diff.after)}`);
  if (area === 'parameters' && typeof key === 'number') {
    const document = diff.action === 'add' ? documents.head : documents.base;
    const item = nodeAt(document, ['paths', pathKey]) as { parameters?: unknown[] } | undefined;
    const list = [...((nodeAt(document, operationPath) as { parameters?: unknown[] })?.parameters ?? []), ...(item?.parameters ?? [])];
    // An added or removed parameter is the diff's value; the index of one changed in place is the base's.
    const named = inner.length === 0 ? (diff.action === 'add' ? diff.after : diff.before) : list[key];
    const parameter = resolved(document, named) as { in?: string; name?: string; required?: boolean } | undefined;
    const at = `${parameter?.in ?? '?'}.${parameter?.name ?? key}`;
    if (inner.length === 0) {
      if (diff.action === 'add') return change('parameter-added', at, parameter?.required ? 'required' : 'optional');
      return change('parameter-removed', at, '', [...operationPath, 'parameters', key]);
    }
    if (inner[0] === 'required') return change(diff.after === true ? 'parameter-required' : 'parameter-optional', at, '');
    if (inner[0] === 'deprecated') return change('parameter-deprecated', at, diff.after === true ? 'marked deprecated' : 'no longer deprecated');
    if (inner[0] === 'schema') {
      const { what, detail } = schemaChange(diff, inner.slice(1));
      if (what === 'extension') return [];
      const kind: ChangeKind = what === 'enum-value-added' || what === 'enum-value-removed' ? `parameter-${what}` : 'parameter-changed';
      return change(kind, at, detail || what);
    }
    if (typeof inner[0] === 'string' && inner[0].startsWith('x-')) return [];
    return change('parameter-changed', at, `${inner.join('.')} ${show(diff.before)} → ${show(diff.after)}`);
  }
  if (area === 'requestBody') {
    if (key === undefined) return change(diff.action === 'add' ? 'request-body-added' : 'request-body-removed', 'body', '');
    if (key === 'required') return change(diff.after === true ? 'request-body-required' : 'request-body-optional', 'body', '');
    if (key === 'content' && inner.length === 1) {
      return change(diff.action === 'add' ? 'request-media-type-added' : 'request-media-type-removed', `body ${String(inner[0])}`, '');
    }
    if (key === 'content' && inner[1] === 'schema') {
      const { what, field, detail } = schemaChange(diff, inner.slice(2));
      if (what === 'extension') return [];
      const removedPath = what === 'removed' ? [...operationPath, ...rest] : undefined;
      return change(`request-field-${what}`, field ? `body.${field}` : 'body', detail, removedPath);
    }
    return [];
  }
  if (area === 'responses' && key !== undefined) {
    const status = String(key);
    if (inner.length === 0) {
      return diff.action === 'add' ? change('response-status-added', status, '') : change('response-status-removed', status, '');
    }
    if (inner[0] === 'headers' && inner[1] !== undefined) {
      const at = `${status} ${String(inner[1])}`;
      if (inner.length === 2) {
        return diff.action === 'add'
          ? change('response-header-added', at, '')
          : change('response-header-removed', at, '', [...operationPath, ...rest]);
      }
      return change('response-header-changed', at, `${inner.slice(2).join('.')} ${show(diff.before)} → ${show(diff.after)}`);
    }
    if (inner[0] === 'content' && inner.length === 2) {
      return change(diff.action === 'add' ? 'response-media-type-added' : 'response-media-type-removed', `${status} ${String(inner[1])}`, '');
    }
    if (inner[0] === 'content' && inner[2] === 'schema') {
      const { what, field, detail } = schemaChange(diff, inner.slice(3));
      if (what === 'extension') return [];
      const removedPath = what === 'removed' ? [...operationPath, ...rest] : undefined;
      return change(`response-field-${what}`, field ? `${status} ${field}` : status, detail, removedPath);
    }
    return [];
  }
  if (diff.type === 'unclassified' || diff.type === 'non-breaking' || diff.type === 'breaking') {
    return change('operation-changed', '', `${rest.join('.')} ${show(diff.before)} → ${show(diff.after)}`);
  }
  return [];
}
