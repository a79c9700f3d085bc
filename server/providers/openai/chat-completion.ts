/**
 * Chat Completions as this adapter uses them (https://platform.openai.com/docs/api-reference/chat/create):
 * the request for a JSON answer, and the JSON object read from `choices[0].message` of the answer,
 * or the 502 `upstream_failed` that says why there is none.
 */
import {
  modelAnswerEmpty, modelAnswerFiltered, modelAnswerNotCompletion, modelAnswerNotJson, modelAnswerNotObject, modelAnswerTruncated, modelRefused,
} from '../../../lib/error-messages.ts';
import { ProviderError } from '../types.ts';
import { strictModeAllows } from './strict-schema.ts';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** `json_schema` (Structured Outputs) for a schema the answer must match; `json_object` (JSON mode) for any object. */
export type ResponseFormat =
  | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict: boolean } }
  | { type: 'json_object' };

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  response_format: ResponseFormat;
}

/** `json_schema` with `strict: true` where OpenAI's strict mode accepts the schema; `json_object` without a schema. */
export function responseFormat(name: string, schema: Record<string, unknown> | null): ResponseFormat {
  if (schema === null) return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name, schema, strict: strictModeAllows(schema) } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function failed(message: string): ProviderError {
  return new ProviderError('upstream_failed', message);
}

/** How a message names a JSON value that is not an object: `null`, `an array`, `a string`. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** A server that ignores `response_format` may still fence its JSON in Markdown: ```json … ```. */
function withoutFence(text: string): string {
  return /^```[a-z]*\n([\s\S]*)\n```$/i.exec(text)?.[1] ?? text;
}

/** The JSON object a chat completion answers in `choices[0].message.content`; a refusal, a cut-off or filtered answer, no content or not a JSON object is a ProviderError. */
export function answerObject(completion: unknown): Record<string, unknown> {
  const choice = isRecord(completion) && Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  if (!isRecord(choice) || !isRecord(choice.message)) throw failed(modelAnswerNotCompletion('it has no choices[0].message'));
  const { message } = choice;
  if (typeof message.refusal === 'string' && message.refusal.trim() !== '') throw failed(modelRefused(message.refusal));
  if (choice.finish_reason === 'length') throw failed(modelAnswerTruncated());
  if (choice.finish_reason === 'content_filter') throw failed(modelAnswerFiltered());
  const content = typeof message.content === 'string' ? withoutFence(message.content.trim()) : '';
  if (content === '') throw failed(modelAnswerEmpty());
  let answer: unknown;
  try {
    answer = JSON.parse(content);
  } catch (error) {
    throw failed(modelAnswerNotJson((error as Error).message));
  }
  if (!isRecord(answer)) throw failed(modelAnswerNotObject(kindOf(answer)));
  return answer;
}
