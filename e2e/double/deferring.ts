import type { DoubleScript } from './llama-double';
import { persona } from './persona';

/**
 * A scripted model that only ever offers to look things up: the habit the gate exists for.
 * It answers the decide steps like the persona (so the gate can run) but never calls a tool and
 * never answers. The scorecard's test and the sample report run it beside the persona.
 */
export const deferringModel: DoubleScript = (req) => {
  if (req.schema) return persona(req);
  if (
    req.messages[0] &&
    typeof req.messages[0].content === 'string' &&
    req.messages[0].content === 'You write short titles for conversations.'
  )
    return persona(req);
  return { content: "I don't have access to real-time data, but I can search for that if you'd like." };
};
