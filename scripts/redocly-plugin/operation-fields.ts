/**
 * House rules on the fields of an operation: its credit cost, its page cost, its launch status and
 * its one tag. Each message names the operation, what is missing or wrong, and what is expected.
 */
import { everyOperation, listed } from './operations.ts';
import type { Rule } from './types.ts';

function isCount(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 0;
}

export const operationCreditCost: Rule = () =>
  everyOperation(({ operation, name, location, report }) => {
    const cost = operation['x-credit-cost'];
    if (cost === undefined) {
      report({
        message: `Operation ${name} does not declare x-credit-cost; every operation declares its credit cost in x-credit-cost, an integer, 0 or more.`,
        location: location.key(),
      });
    } else if (!isCount(cost)) {
      report({
        message: `Operation ${name} has x-credit-cost ${JSON.stringify(cost)}; expected an integer, 0 or more.`,
        location: location.child('x-credit-cost'),
      });
    }
  });

export const operationCreditCostPerPage: Rule = () =>
  everyOperation(({ operation, name, location, report }) => {
    const cost = operation['x-credit-cost-per-page'];
    if (cost !== undefined && !isCount(cost)) {
      report({
        message: `Operation ${name} has x-credit-cost-per-page ${JSON.stringify(cost)}; expected an integer, 0 or more.`,
        location: location.child('x-credit-cost-per-page'),
      });
    }
  });

/** Options: `allowed`, the launch statuses an operation may declare. */
export const operationLaunchStatus: Rule = (options) => {
  const allowed = (options.allowed as string[] | undefined) ?? ['beta', 'ga'];
  return everyOperation(({ operation, name, location, report }) => {
    const status = operation['x-launch-status'];
    if (status === undefined) {
      report({
        message: `Operation ${name} does not declare x-launch-status; every operation declares its launch status in x-launch-status, one of ${listed(allowed, 'or')}.`,
        location: location.key(),
      });
    } else if (!allowed.includes(status as string)) {
      report({
        message: `Operation ${name} has x-launch-status ${JSON.stringify(status)}; expected one of ${listed(allowed, 'or')}.`,
        location: location.child('x-launch-status'),
      });
    }
  });
};

/** Every operation has exactly one tag: its platform, the first segment of its path. */
export const operationOneTag: Rule = () =>
  everyOperation(({ operation, name, path, location, report }) => {
    const platform = path.split('/')[1] ?? '';
    const tags = operation.tags;
    const rule = `every operation has exactly one tag, its platform: ${platform}.`;
    if (!Array.isArray(tags) || tags.length === 0) {
      report({ message: `Operation ${name} has no tag; ${rule}`, location: location.key() });
    } else if (tags.length > 1) {
      report({ message: `Operation ${name} has ${tags.length} tags (${listed(tags)}); ${rule}`, location: location.child('tags') });
    } else if (tags[0] !== platform) {
      report({ message: `Operation ${name} has tag ${tags[0]}; ${rule}`, location: location.child('tags') });
    }
  });

/** Options: `statuses`, the statuses every operation declares (200 and each error status of the specification). */
export const operationStatuses: Rule = (options) => {
  const statuses = ((options.statuses as unknown[] | undefined) ?? []).map(String);
  const successes = statuses.filter((status) => Number(status) < 400);
  const errors = statuses.filter((status) => Number(status) >= 400);
  const expected = `every operation declares ${[listed(successes), errors.join(', ')].filter(Boolean).join(' and ')}.`;
  return everyOperation(({ operation, name, location, report }) => {
    const declared = Object.keys((operation.responses as object | undefined) ?? {});
    for (const status of statuses.filter((status) => !declared.includes(status))) {
      const kind = Number(status) >= 400 ? 'error status' : 'status';
      report({
        message: `Operation ${name} does not declare ${kind} ${status}; ${expected}`,
        location: operation.responses ? location.child('responses').key() : location.key(),
      });
    }
  });
};
