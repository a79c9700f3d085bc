/**
 * Every response of every operation declares the envelope headers. A response shared through a
 * `$ref` is reported once, in its own file, naming the first operation that uses it.
 */
import { everyOperation, listed } from './operations.ts';
import { isObject, type Rule } from './types.ts';

/** Options: `headers`, the header names every response declares. */
export const responseHeaders: Rule = (options) => {
  const required = (options.headers as string[] | undefined) ?? [];
  const expected = `every response declares ${listed(required)}.`;
  const reported = new Set<string>();
  return everyOperation(({ operation, name, location, report, resolve }) => {
    const responses = isObject(operation.responses) ? operation.responses : {};
    for (const [status, reference] of Object.entries(responses)) {
      const response = resolve(reference, location.child(['responses', status]));
      if (!response || !isObject(response.node)) continue;
      const where = `${response.location.source.absoluteRef}${response.location.pointer}`;
      if (reported.has(where)) continue;
      reported.add(where);
      const shared = isObject(reference) && '$ref' in reference ? ', and of every operation that shares it,' : '';
      const headers = isObject(response.node.headers) ? response.node.headers : undefined;
      for (const header of required.filter((header) => !headers || !(header in headers))) {
        report({
          message: `Response ${status} of operation ${name}${shared} does not declare header ${header}; ${expected}`,
          location: headers ? response.location.child('headers').key() : response.location,
        });
      }
    }
  });
};
