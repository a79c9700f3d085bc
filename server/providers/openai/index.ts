/**
 * The `openai` adapter: `web/extract`, the web agent's steps and the monitor judge on any
 * OpenAI-compatible model server (OpenAI, vLLM, llama.cpp, Ollama). See README.md.
 */
import type { Logger } from 'pino';
import type { DataProvider } from '../types.ts';
import { agentStepper, type AgentStep } from './agent-step.ts';
import type { OpenAiConfig } from './config.ts';
import { createOpenAiProvider } from './extract.ts';
import { changeJudge } from './judge.ts';
import { createOpenAiModel, modelUpstream } from './model-client.ts';
import type { ReadPage } from './read-page.ts';

export { openaiConfig, type OpenAiConfig } from './config.ts';
export { createOpenAiProvider } from './extract.ts';
export { agentStepper, type AgentMove, type AgentState, type AgentStep } from './agent-step.ts';
export { changeJudge, type Judgement } from './judge.ts';
export { createOpenAiModel, modelUpstream, type OpenAiModel } from './model-client.ts';
export { readPageThrough, type ReadPage } from './read-page.ts';

export interface OpenAiAdapter {
  /** Serves `extractWebData`, judges monitors' changes (`judge`) and runs `runWebAgent` jobs through its `agent` (one agentStep per job step). */
  provider: DataProvider;
  agentStep: AgentStep;
  /** Closes the connections to the model server (at shutdown). */
  close(): Promise<void>;
}

/** Everything the adapter offers, on one bounded connection pool to the configured model server. */
export function createOpenAiAdapter(config: OpenAiConfig, deps: { logger: Logger; readPage: ReadPage }): OpenAiAdapter {
  const upstream = modelUpstream(config, deps.logger);
  const model = createOpenAiModel(config, { upstream, logger: deps.logger });
  const agentStep = agentStepper(model);
  return {
    provider: { ...createOpenAiProvider(model, { readPage: deps.readPage }), judge: changeJudge(model), agent: { step: agentStep } },
    agentStep,
    close: () => upstream.close(),
  };
}
