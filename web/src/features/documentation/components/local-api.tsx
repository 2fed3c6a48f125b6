import { CodeBlock } from './code-block';
import { LOCAL_API_BASE_URL, LOCAL_API_BASE_URL_HERE, LOCAL_API_PORT } from './desktop-app-facts';
import { DocHeading, InlineCode, Steps, Ui } from './doc-text';
import { DocSection } from './doc-section';

/** The model id the examples name: replaced by one from GET /v1/models. */
export const EXAMPLE_MODEL = 'smollm2_135m_instruct';

export const listModelsExample = `export MESHWORK_API_KEY='mw-...'   # the key the app showed you
curl ${LOCAL_API_BASE_URL_HERE}/models \\
  -H "Authorization: Bearer $MESHWORK_API_KEY"`;

export const chatCurlExample = `curl ${LOCAL_API_BASE_URL_HERE}/chat/completions \\
  -H "Authorization: Bearer $MESHWORK_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{
    "model": "${EXAMPLE_MODEL}",
    "messages": [{ "role": "user", "content": "What is the capital of France?" }],
    "max_tokens": 200
  }'`;

/** An ES module (ask.mjs): it asks the first model the app lists, so it runs as printed. */
export const openAiClientExample = `import OpenAI from 'openai';

const client = new OpenAI({
  baseURL: '${LOCAL_API_BASE_URL_HERE}',
  apiKey: process.env.MESHWORK_API_KEY,
});

const models = await client.models.list();
const completion = await client.chat.completions.create({
  model: models.data[0].id,
  messages: [{ role: 'user', content: 'What is the capital of France?' }],
});
console.log(completion.choices[0].message.content);`;

const runClientExample = `npm install openai
MESHWORK_API_KEY='mw-...' node ask.mjs`;

/** The app's OpenAI-compatible api: base URL, keys, curl and the `openai` client (desktop/src/runtime/inference). */
export function LocalApi() {
  return (
    <DocSection id="use-the-local-api" title="Use the local API">
      <p>
        Every installed app answers an OpenAI-compatible API on port <InlineCode>{LOCAL_API_PORT}</InlineCode>, so programs on your network
        can use your models as they would use OpenAI&apos;s, with nothing sent outside. Its base URL is{' '}
        <InlineCode>{LOCAL_API_BASE_URL}</InlineCode>: the address of the computer running the app (the host, for a network), or{' '}
        <InlineCode>{LOCAL_API_BASE_URL_HERE}</InlineCode> on that computer itself. The examples below run on it.
      </p>

      <DocHeading id="api-keys">Make a key</DocHeading>
      <Steps>
        <li>
          In the app, open <Ui>API keys</Ui>. It lists this computer&apos;s <Ui>Base URL</Ui> for each of its network addresses.
        </li>
        <li>
          Name the program that will use the key and press <Ui>Create key</Ui>. Copy the key (it starts with <InlineCode>mw-</InlineCode>)
          at once: the app shows it only this time and keeps only a fingerprint of it.
        </li>
        <li>
          Send it as a bearer token: <InlineCode>Authorization: Bearer mw-...</InlineCode>. <Ui>Revoke</Ui> stops a key at once.
        </li>
      </Steps>

      <DocHeading id="api-models">List the models</DocHeading>
      <p>
        <InlineCode>GET /v1/models</InlineCode> lists the models installed on this computer that your plan includes. Each one&apos;s{' '}
        <InlineCode>id</InlineCode> is the name a request gives as <InlineCode>model</InlineCode>.
      </p>
      <CodeBlock label="List the models with curl" code={listModelsExample} />

      <DocHeading id="api-chat">Ask a model</DocHeading>
      <p>
        <InlineCode>POST /v1/chat/completions</InlineCode> takes OpenAI&apos;s request: <InlineCode>model</InlineCode>,{' '}
        <InlineCode>messages</InlineCode>, and optionally <InlineCode>stream</InlineCode>, <InlineCode>max_tokens</InlineCode>,{' '}
        <InlineCode>temperature</InlineCode>, <InlineCode>top_p</InlineCode>, <InlineCode>stop</InlineCode> and{' '}
        <InlineCode>seed</InlineCode>. Put an id from the list in place of <InlineCode>{EXAMPLE_MODEL}</InlineCode>.
      </p>
      <CodeBlock label="Ask with curl" code={chatCurlExample} />

      <DocHeading id="api-openai-client">With the openai package</DocHeading>
      <p>
        OpenAI&apos;s own client works unchanged with the base URL and your key. Save this as <InlineCode>ask.mjs</InlineCode>:
      </p>
      <CodeBlock label="ask.mjs" code={openAiClientExample} />
      <CodeBlock label="Run it" code={runClientExample} />
      <p>
        Errors come in OpenAI&apos;s format, so its clients report them as usual: <InlineCode>401</InlineCode> for a missing or revoked key,{' '}
        <InlineCode>404</InlineCode> for a model that is not installed or not in your plan, <InlineCode>429</InlineCode> while a program has
        too many requests waiting.
      </p>
    </DocSection>
  );
}
