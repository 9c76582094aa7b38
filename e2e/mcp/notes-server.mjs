// An MCP server over stdio, written with the official SDK, for Hearth's tests: a notebook.
// list_notes and echo change nothing (readOnlyHint); add_note changes something (it asks
// first); fail answers isError; broken_schema nests too deep to be used, remote_ref points
// to another document (the grammar cannot resolve it); stop_server exits the process
// mid-call (a server killed mid-turn); unlock adds a tool and says the list changed.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const notes = [];
const object = (properties = {}, required = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'list_notes', description: 'List the notes in the notebook.', inputSchema: object(), annotations: { readOnlyHint: true } },
  {
    name: 'add_note',
    description: 'Add a note to the notebook.',
    inputSchema: object({ text: { type: 'string', description: 'the note', pattern: '^(?!x' } }, ['text']),
  },
  {
    name: 'echo',
    description: 'Say the text back.',
    inputSchema: object({ text: { type: 'string' } }, ['text']),
    annotations: { readOnlyHint: true },
  },
  { name: 'fail', description: 'Always fails.', inputSchema: object(), annotations: { readOnlyHint: true } },
  {
    // Nested deeper than a grammar should go: left out, with the reason.
    name: 'broken_schema',
    description: 'A tool whose schema nests thirty levels deep.',
    inputSchema: object({
      a: Array.from({ length: 30 }).reduce((inner) => ({ type: 'object', properties: { a: inner } }), { type: 'string' }),
    }),
    annotations: { readOnlyHint: true },
  },
  {
    // A $ref to another document, which the grammar cannot resolve: it becomes "any value".
    name: 'remote_ref',
    description: 'A tool whose schema points elsewhere.',
    inputSchema: object({ q: { $ref: 'https://example.org/other.json' } }),
    annotations: { readOnlyHint: true },
  },
  { name: 'stop_server', description: 'Stops the server mid-call.', inputSchema: object(), annotations: { readOnlyHint: true } },
  {
    name: 'unlock',
    description: 'Adds the tool secret_page (the list of tools changes).',
    inputSchema: object(),
    annotations: { readOnlyHint: true },
  },
];

const server = new Server({ name: 'notes', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const args = req.params.arguments ?? {};
  switch (req.params.name) {
    case 'list_notes':
      return {
        content: [{ type: 'text', text: notes.length ? notes.map((n, i) => `${i + 1}. ${n}`).join('\n') : 'The notebook is empty.' }],
      };
    case 'add_note':
      notes.push(String(args.text));
      return { content: [{ type: 'text', text: `Noted: ${args.text}` }], structuredContent: { count: notes.length } };
    case 'echo':
      return { content: [{ type: 'text', text: `notes echo: ${args.text}` }] };
    case 'fail':
      return { isError: true, content: [{ type: 'text', text: 'the notebook is locked' }] };
    case 'unlock':
      if (!TOOLS.some((t) => t.name === 'secret_page'))
        TOOLS.push({
          name: 'secret_page',
          description: 'Reads the secret page.',
          inputSchema: object(),
          annotations: { readOnlyHint: true },
        });
      await server.sendToolListChanged();
      return { content: [{ type: 'text', text: 'unlocked' }] };
    case 'secret_page':
      return { content: [{ type: 'text', text: 'the secret page' }] };
    case 'stop_server':
      process.stderr.write('notes: stopping as asked\n');
      setTimeout(() => process.exit(3), 10);
      return new Promise(() => undefined);
    default:
      return { isError: true, content: [{ type: 'text', text: `no tool ${req.params.name}` }] };
  }
});
process.stderr.write('notes: ready\n');
await server.connect(new StdioServerTransport());
