/** The text of `embabel-ts --help`. */
export const HELP_TEXT = `embabel-ts: run your agents (or the examples) from the terminal

Usage:
  embabel-ts run <example|module> ["<input>"] [options]   run an agent on your request
  embabel-ts list                                  list the examples
  embabel-ts worker [<module>] --redis <url>       run queued agent processes (scale-out; see docs/scale-out.md)
  embabel-ts mcp-serve [<module>] [--http <port>] [options]   serve the agents as MCP tools (stdio, or HTTP on 127.0.0.1)
  embabel-ts studio [<module>] [--port <n>] [<trace files>]   look at runs in the browser, start the agents (http://127.0.0.1:4477)
  embabel-ts waiting [<module>] --redis <url>      list the runs waiting for a person (approvals, forms)
  embabel-ts respond [<module>] <process-id> <request-id> approve|deny|submit [--reason <r>] [--input '<json>'] [--wait <s>] --redis <url>
                                                   answer a waiting run; a worker then continues it
                                                   (returns once stored; --wait <s> prints how it ended)
  embabel-ts --help                                show this help
  embabel-ts --version                             print the version

<example> is a name from 'list'. <module> is the path of your own module (.js/.mjs; .ts when tsx is
installed) exporting its agents: export const agents = [MyAgent] (or each agent by name); an optional
'example' export ({ name, agents, script() }) adds a recorded script for --scripted. See docs/cli.md.
The input becomes the agent's input type: JSON for that type, or plain text for its one text field.
Without "<input>", the example runs on its sample input.

Options for run:
  -s, --scripted        replay the example's recorded script (offline, no API key needed)
  -m, --model <id>      the model to use, e.g. openai:gpt-4.1, anthropic:claude-sonnet-4-5, ollama:qwen2.5
  -v, --verbose         also show prompts, LLM replies and full tool results
  -c, --config <file>   read this config file instead of ./embabel.config.{json,yaml,yml}
      --trace <file>    also write the run's trace (JSON lines) to this file
      --json            print the trace events as JSON lines instead of the live tree
      --no-keep-runs    do not keep the run in .embabel-ts/runs (EMBABEL_KEEP_RUNS=0 does the same)
      --skills <dir>    offer the Agent Skills in this folder (repeatable; adds to the config's "skills")
      --approve-all     approve every tool call waiting for approval (and every confirmation)
      --deny-all        deny them all; without either flag a terminal asks: approve / deny / edit
      --agent <name>    with a module of several agents: the one to run

Scale-out (Redis and the bullmq + ioredis packages):
  --redis <url>         run: send the run to the workers on this Redis and print their trace; worker: take runs from it
  --queue <name>        the queue to use (default embabel-agents)
  --concurrency <n>     worker: processes run at once (default 10)
  --scripted            worker: every run replays its example's recorded script
  --lock-duration <ms>  worker: a dead worker's runs move to another after this long (default 30000)
  --stalled-interval <ms>  worker: how often to look for runs of dead workers (default 30000);
                        run: how often to check that the run's job still exists in Redis (default 30000)
  --wait-timeout <s>    run: cancel the run if no worker has taken it after this many seconds (default: wait)
  <module> for worker, waiting and respond: your module (its agents read the runs' checkpoints); the built-in examples without one.

Options for studio:
  --port <n>            the port on 127.0.0.1 (default 4477; 0 picks a free one)
  --no-token            ask for no token (a machine only you use); by default the printed URL carries one

Options for mcp-serve:
  --http <port>         serve Streamable HTTP on 127.0.0.1 (0 picks a free port) instead of stdio
  --token <t>           require 'Authorization: Bearer <t>' on every request (or set EMBABEL_MCP_TOKEN)
  --host <address>      listen on this address instead of 127.0.0.1 (anything else needs a token)
  --allowed-origin <o>  also accept requests from this browser origin (repeatable)
  --allowed-host <h>    also answer to this Host name, e.g. behind a reverse proxy (repeatable)
  --stateless           serve HTTP without sessions (default: sessions, so agents can ask the client for input)
  --max-sessions <n>    keep at most n sessions; when full, the least recently used idle one ends (default 100)
  --session-idle <s>    end a session idle this many seconds (default 1800; 120 for one with no open stream)
  -s, --scripted        run the agents on their recorded scripts (offline)
  -m, --model, -c, --config as for run
  --redis <url>, --queue <name>  send each run to the workers on this Redis: a run waiting for a person
                        is kept there and answered (respond_to_request) through any server process

MCP servers and tool groups: the config file's "mcpServers" block (the Claude Desktop / Cursor / VS Code
format) and "toolGroups" (roles to { description, provider, tools }) are started when an agent first
needs them. See docs/mcp.md. Its "skills" list (Agent Skills folders) and --skills become the
"skills" tool group, which agents ask for with withToolGroup("skills"). See docs/skills.md.

Models come from --model, then the config file, then the environment:
  EMBABEL_MODEL         <provider>:<model> (openai, anthropic, ollama, openai-compatible)
  OPENAI_API_KEY        OpenAI key (on its own, selects openai:gpt-4.1)
  ANTHROPIC_API_KEY     Anthropic key (on its own, selects anthropic:claude-sonnet-4-5)
  OLLAMA_BASE_URL       a local Ollama server, e.g. http://127.0.0.1:11434/v1 (on its own, selects ollama:qwen2.5)

Exit status: 0 when the agent completed; 1 when it did not, or configuration is missing or wrong;
2 for a mistake on the command line; 3 when the run waits for a person and nothing here can answer
(no terminal, no --approve-all / --deny-all: the request and the command to answer it are printed). EMBABEL_DEBUG=1 adds stack traces to unexpected errors.

Examples:
  embabel-ts run concert-planner "A Mozart evening for a small hall" --scripted
  embabel-ts run star-news "Lynda, a Scorpio" --scripted
  OPENAI_API_KEY=sk-... embabel-ts run star-news "Lynda, a Scorpio"
`;
