/**
 * The channel of an in-process session with no agent behind it (a bot's own calls, the
 * admin's test calls): it declares nothing, answers nothing, hears nothing, so an upstream's
 * sampling, elicitation or roots request during its call is refused as unsupported.
 * @module
 */
import { AgentUnsupportedError } from '../../errors.js';
import type { AgentChannel } from '../session/index.js';

/** No agent: every request to it is refused, every notification dropped. */
export const NO_AGENT: AgentChannel = Object.freeze({
  clientCapabilities: () => ({}),
  createMessage: () => Promise.reject(new AgentUnsupportedError('sampling')),
  elicit: () => Promise.reject(new AgentUnsupportedError('elicitation')),
  listRoots: () => Promise.reject(new AgentUnsupportedError('roots')),
  notify: () => Promise.resolve(),
});
