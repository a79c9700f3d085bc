/** OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL: read once, a bad value named, the key never echoed. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.ts';
import { openaiConfig } from './config.ts';

const KEY = 'sk-proj-abc123';

describe('openaiConfig', () => {
  const valid = [
    { name: 'none of the three set: no model server', env: {}, config: null },
    { name: 'all empty: no model server', env: { OPENAI_BASE_URL: '', OPENAI_API_KEY: '', OPENAI_MODEL: '' }, config: null },
    { name: 'a local vLLM server without a key', env: { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_MODEL: 'Qwen/Qwen2.5-7B-Instruct' }, config: { baseUrl: 'http://127.0.0.1:8000/v1', apiKey: null, model: 'Qwen/Qwen2.5-7B-Instruct' } },
    { name: 'a trailing slash is dropped', env: { OPENAI_BASE_URL: 'http://localhost:11434/v1/', OPENAI_MODEL: 'llama3.2' }, config: { baseUrl: 'http://localhost:11434/v1', apiKey: null, model: 'llama3.2' } },
    { name: 'a key alone calls OpenAI', env: { OPENAI_API_KEY: KEY, OPENAI_MODEL: 'gpt-4o-mini' }, config: { baseUrl: 'https://api.openai.com/v1', apiKey: KEY, model: 'gpt-4o-mini' } },
    { name: 'a key with a base URL', env: { OPENAI_BASE_URL: 'https://llm.intranet.example/v1', OPENAI_API_KEY: KEY, OPENAI_MODEL: 'm' }, config: { baseUrl: 'https://llm.intranet.example/v1', apiKey: KEY, model: 'm' } },
  ];
  for (const { name, env, config } of valid) {
    it(name, () => expect(openaiConfig(env)).toEqual(config));
  }

  const invalid = [
    { name: 'a base URL without OPENAI_MODEL names OPENAI_MODEL', env: { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' }, message: /^OPENAI_MODEL must name the model to call/ },
    { name: 'a key without OPENAI_MODEL names OPENAI_MODEL', env: { OPENAI_API_KEY: KEY }, message: /^OPENAI_MODEL must name/ },
    { name: 'OPENAI_MODEL alone names OPENAI_BASE_URL', env: { OPENAI_MODEL: 'gpt-4o-mini' }, message: /^OPENAI_BASE_URL must be set to use OPENAI_MODEL/ },
    { name: 'a base URL that is not a URL', env: { OPENAI_BASE_URL: '127.0.0.1:8000', OPENAI_MODEL: 'm' }, message: /^OPENAI_BASE_URL must be an http\(s\) URL without query or fragment/ },
    { name: 'a base URL that is not http', env: { OPENAI_BASE_URL: 'ftp://models.example/v1', OPENAI_MODEL: 'm' }, message: /^OPENAI_BASE_URL must be an http\(s\) URL/ },
    { name: 'a base URL with a query', env: { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1?x=1', OPENAI_MODEL: 'm' }, message: /^OPENAI_BASE_URL must be an http\(s\) URL without query or fragment/ },
    { name: 'a bad base URL with a password, the password hidden', env: { OPENAI_BASE_URL: 'ftp://user:s3cret@127.0.0.1:8000/v1', OPENAI_MODEL: 'm' }, message: /user:\*\*\*@/ },
    { name: 'a base URL ending in /chat/completions', env: { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1/chat/completions', OPENAI_MODEL: 'm' }, message: /^OPENAI_BASE_URL must be the base URL, the part before \/chat\/completions/ },
    { name: 'a key with a space in it, not echoed', env: { OPENAI_API_KEY: `${KEY} ${KEY}`, OPENAI_MODEL: 'm' }, message: /^OPENAI_API_KEY must be one API key without spaces or line breaks$/ },
  ];
  for (const { name, env, message } of invalid) {
    it(`${name}: ConfigError`, () => {
      let error: unknown;
      try {
        openaiConfig(env);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toMatch(/s3cret|sk-proj/);
    });
  }
});
