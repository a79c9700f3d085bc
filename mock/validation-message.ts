/** Turns Prism's request diagnostics into the clauses of the contract's precise `invalid_parameters` message. */

export interface Diagnostic {
  path?: readonly (string | number)[];
  code?: string | number;
  message: string;
  severity: number;
}

const ERROR_SEVERITY = 0;

function describe(diagnostic: Diagnostic): string {
  const location = (diagnostic.path ?? []).map(String);
  const quoted = /'([^']+)'/.exec(diagnostic.message)?.[1];
  if (diagnostic.code === 'required' && quoted) return `${[...location, quoted].join('.')} is required`;
  if (diagnostic.code === 'additionalProperties' && quoted) return `${[...location, quoted].join('.')} is not allowed`;
  const rule = diagnostic.message.replace(/^Request (?:\S+ )*?(?=must |should |is |does )/, '');
  return `${location.join('.') || 'request'} ${rule}`;
}

/** The error diagnostics of a request, one readable clause each; empty when the request is valid. */
export function requestProblems(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.filter((diagnostic) => diagnostic.severity === ERROR_SEVERITY).map(describe);
}
