/**
 * Valid requests whose success must follow the request itself, on every target: the formats
 * asked for and no others, fields outside `include` null, lists within `limit`, the URL asked
 * echoed. The mock once answered each of them with its example, whatever was asked.
 */
import { expect } from 'vitest';
import { contractOperations, type ContractOperation } from '../contract.ts';
import type { ContractCase } from './cases.ts';

function operation(operationId: string): ContractOperation {
  return contractOperations().find((candidate) => candidate.operationId === operationId)!;
}

function success(operationId: string, name: string, query: Record<string, string>, check: (data: Record<string, any>) => void): ContractCase {
  const addressed = operation(operationId);
  return {
    name: `${operationId}: ${name}`,
    operation: addressed,
    method: addressed.method.toUpperCase(),
    path: addressed.path,
    query,
    expected: { status: 200, check: (answer) => check(answer.body.data) },
  };
}

export const requestEchoCases: ContractCase[] = [
  success('scrapeWebPage', 'formats=html answers the HTML alone, for the URL asked', { url: 'https://example.com/docs/start', formats: 'html' }, (data) => {
    expect(Object.keys(data).sort()).toEqual(['html', 'url']);
    expect(new URL(data.url).pathname).toBe('/docs/start');
  }),
  success('listSocialEvents', 'without include, description, location and counts are null', { url: 'https://www.meetup.com/lisbon-runners/' }, (data) => {
    expect(data.source_url).toBe('https://www.meetup.com/lisbon-runners/');
    for (const event of data.events) expect([event.description, event.location, event.counts]).toEqual([null, null, null]);
  }),
  success('mapWebsite', 'limit=2 answers at most 2 links, for the URL asked', { url: 'https://example.com/', limit: '2' }, (data) => {
    expect(data.links.length).toBeLessThanOrEqual(2);
    expect(new URL(data.url).pathname).toBe('/');
  }),
  success('searchWeb', 'limit=2 answers at most 2 results, for the query asked', { query: 'standing desk plans', limit: '2' }, (data) => {
    expect(data.results.length).toBeLessThanOrEqual(2);
    expect(data.query).toBe('standing desk plans');
  }),
];
