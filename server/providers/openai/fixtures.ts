/**
 * The Chat Completions API's documented answers (fixtures/), for the fake model server of the
 * tests (test-support/fake-upstream.ts): the reference's example completion carrying a test's
 * content, and its documented refusal and error bodies.
 */
import { readFileSync } from 'node:fs';

/** A fixture of fixtures/, parsed. */
export function fixture(name: string): Record<string, any> {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
}

/** The API reference's example completion (fixtures/chat-completion.json) with its first choice's message and finish_reason replaced. */
export function completion(message: { content?: string | null; refusal?: string | null }, finishReason = 'stop'): Record<string, any> {
  const documented = fixture('chat-completion.json');
  const choice = documented.choices[0];
  return { ...documented, choices: [{ ...choice, message: { ...choice.message, content: null, refusal: null, ...message }, finish_reason: finishReason }] };
}
