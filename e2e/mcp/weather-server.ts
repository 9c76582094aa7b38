import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/**
 * An MCP server over Streamable HTTP, written with the official SDK, for Hearth's tests: a
 * forecast (read-only) and an `echo` of the same name as the notes server's, so two servers'
 * tools meet. Stateless: a new server and transport per request, as the SDK's examples do.
 */
export type WeatherServer = { url: string; calls: { tool: string; args: unknown }[]; close(): Promise<void> };

function build(calls: WeatherServer['calls']) {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool(
    'get_forecast',
    { description: 'The forecast for a city today.', inputSchema: { city: z.string() }, annotations: { readOnlyHint: true } },
    async ({ city }) => {
      calls.push({ tool: 'get_forecast', args: { city } });
      return { content: [{ type: 'text', text: `In ${city} today: 18°C and light rain.` }] };
    },
  );
  server.registerTool(
    'echo',
    { description: 'Say the text back.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => {
      calls.push({ tool: 'echo', args: { text } });
      return { content: [{ type: 'text', text: `weather echo: ${text}` }] };
    },
  );
  return server;
}

export async function startWeatherServer(port = 0): Promise<WeatherServer> {
  const calls: WeatherServer['calls'] = [];
  const httpServer = http.createServer(async (req, res) => {
    if (req.url !== '/mcp') return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    const server = build(calls);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => httpServer.listen(port, '127.0.0.1', resolve));
  const { port: actual } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}/mcp`,
    calls,
    close: () => new Promise((resolve) => httpServer.close(() => resolve())),
  };
}
