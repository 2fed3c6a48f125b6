/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Issue 14, section 5: the host's OpenAI-compatible api, called with the official `openai`
 * client, answering from the real SmolLM2 package that staff uploaded and the host downloaded.
 */
import OpenAI from 'openai';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';
import { CAPITAL_OF_FRANCE as CHAT, uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';

describe('the host’s OpenAI-compatible api', () => {
  let world: NetworksWorld;
  let subject: TestHost;
  let model: { name: string; id: string };
  let key: string;
  let owner: Awaited<ReturnType<NetworksWorld['customer']>>;
  const client = (apiKey = key) => new OpenAI({ apiKey, baseURL: subject.openaiBase, maxRetries: 0, timeout: 60_000 });

  beforeAll(async () => {
    world = await networksWorld();
    model = await uploadSmolLM2(world, ['pro']);

    owner = await world.customer('pro');
    subject = await startHost(world.base);
    const code = ((await subject.call('POST', '/host/sign-in/device')).body.account as { user_code: string }).user_code;
    await owner.post('/devices/activate/', { user_code: code, name: 'Inference host', approve: true }).expect(200);
    await subject.until((s) => s.models.some((m) => m.name === model.name), 20_000, 'the model in the plan');
    expect((await subject.call('POST', '/host/models/download', { name: model.name })).status).toBe(200);
    await subject.until((s) => s.models.find((m) => m.name === model.name)?.status === 'installed', 120_000, 'the model installed');
    const created = await subject.call('POST', '/host/api-keys', { name: 'Test client' });
    expect(created.body).toMatchObject({ name: 'Test client', prefix: expect.stringMatching(/^mw-/), key: expect.stringMatching(/^mw-/) });
    key = created.body.key as string;
  }, 300_000);

  afterAll(async () => {
    await subject?.close();
    await world?.close();
  });

  it('lists the installed model the plan allows, and refuses a wrong key', async () => {
    const models = await client().models.list();
    expect(models.data.map((m) => m.id)).toEqual([model.name]);
    await expect(client('mw-wrong').models.list()).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('answers "The capital of France is Paris." whole and streamed, with usage', async () => {
    const whole = await client().chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 });
    expect(whole.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'The capital of France is Paris.' },
      finish_reason: 'stop',
    });
    expect(whole.usage).toEqual({ prompt_tokens: 37, completion_tokens: 7, total_tokens: 44 });

    const stream = await client().chat.completions.create({
      model: model.name,
      messages: CHAT,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    });
    const pieces: string[] = [];
    let finish: string | null = null;
    let usage: unknown = null;
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        if (choice.delta.content) pieces.push(choice.delta.content);
        finish = choice.finish_reason ?? finish;
      }
      if (chunk.usage) usage = chunk.usage;
    }
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe('The capital of France is Paris.');
    expect(finish).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 37, completion_tokens: 7, total_tokens: 44 });
  }, 60_000);

  it('honours max_tokens and stop, and a follow-up turn reuses the cache without changing the answer', async () => {
    const short = await client().chat.completions.create({ model: model.name, messages: CHAT, temperature: 0, max_tokens: 3 });
    expect(short.choices[0]).toMatchObject({ message: { content: 'The capital of' }, finish_reason: 'length' });
    const stopped = await client().chat.completions.create({ model: model.name, messages: CHAT, temperature: 0, stop: [' is'] });
    expect(stopped.choices[0]).toMatchObject({ message: { content: 'The capital of France' }, finish_reason: 'stop' });

    const followUp = [
      ...CHAT,
      { role: 'assistant' as const, content: 'The capital of France is Paris.' },
      { role: 'user' as const, content: 'And of Italy?' },
    ];
    await client().chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 });
    const afterPrefix = await client().chat.completions.create({ model: model.name, messages: followUp, temperature: 0, max_tokens: 12 });
    await client().chat.completions.create({
      model: model.name,
      messages: [{ role: 'user', content: 'Hello' }],
      temperature: 0,
      max_tokens: 2,
    });
    const fromScratch = await client().chat.completions.create({ model: model.name, messages: followUp, temperature: 0, max_tokens: 12 });
    expect(afterPrefix.choices[0]!.message.content).toBe(fromScratch.choices[0]!.message.content);
    expect(afterPrefix.choices[0]!.message.content).toMatch(/\S/);
  }, 60_000);

  it('without max_tokens an answer stops at the default 512 tokens; an explicit limit is honoured either way', async () => {
    const story = [{ role: 'user' as const, content: 'Write a very long story about a dragon.' }];
    const long = await client().chat.completions.create({ model: model.name, messages: story, temperature: 0 });
    expect(long.choices[0]!.finish_reason).toBe('length');
    expect(long.usage?.completion_tokens).toBe(512);
    const short = await client().chat.completions.create({ model: model.name, messages: story, temperature: 0, max_tokens: 40 });
    expect(short.choices[0]!.finish_reason).toBe('length');
    expect(short.usage?.completion_tokens).toBe(40);
    expect(long.choices[0]!.message.content!.startsWith(short.choices[0]!.message.content!)).toBe(true);
  }, 120_000);

  it('the default repeat penalty ends a loop that repeat_penalty 1 (none) runs to the limit', async () => {
    const loop = [{ role: 'user' as const, content: 'Write the word Paris 600 times.' }];
    const penalised = await client().chat.completions.create({ model: model.name, messages: loop, temperature: 0 });
    expect(penalised.choices[0]!.finish_reason).toBe('stop');
    expect(penalised.usage!.completion_tokens).toBeLessThan(512);
    const unpenalised = await client().chat.completions.create({
      model: model.name,
      messages: loop,
      temperature: 0,
      max_tokens: penalised.usage!.completion_tokens + 20,
      // @ts-expect-error llama.cpp's field, not in OpenAI's types; the host documents it.
      repeat_penalty: 1,
    });
    expect(unpenalised.choices[0]!.finish_reason).toBe('length');
  }, 120_000);

  it('answers two clients at once, each in full', async () => {
    const second = (await subject.call('POST', '/host/api-keys', { name: 'Second client' })).body.key as string;
    const [a, b] = await Promise.all([
      client().chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 }),
      client(second).chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 }),
    ]);
    expect([a.choices[0]!.message.content, b.choices[0]!.message.content]).toEqual([
      'The capital of France is Paris.',
      'The capital of France is Paris.',
    ]);
  }, 60_000);

  it('one client’s prompt of one long word holds up no one: the window and other clients are answered while it is tokenised', async () => {
    const bystander = (await subject.call('POST', '/host/api-keys', { name: 'Bystander' })).body.key as string;
    // 600 KB: under the bound found without tokenising (8192 tokens of at most 81 bytes), so tokenised in full.
    const word = [{ role: 'user' as const, content: 'x'.repeat(600_000) }];
    let pending = true;
    const outcome = client()
      .chat.completions.create({ model: model.name, messages: word })
      .then(
        () => null,
        (error: unknown) => error,
      )
      .finally(() => (pending = false));
    let answeredMeanwhile = 0;
    while (pending) {
      const [models, state] = await Promise.all([client(bystander).models.list(), subject.call('GET', '/host/state')]);
      expect(models.data.map((m) => m.id)).toEqual([model.name]);
      expect(state.status).toBe(200);
      if (pending) answeredMeanwhile++;
    }
    expect(await outcome).toMatchObject({ status: 400, code: 'context_length_exceeded' });
    expect(answeredMeanwhile).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a prompt sure to exceed the context before tokenising it', async () => {
    const word = [{ role: 'user' as const, content: 'x'.repeat(1_000_000) }];
    await expect(client().chat.completions.create({ model: model.name, messages: word })).rejects.toMatchObject({
      status: 400,
      code: 'context_length_exceeded',
      param: 'messages',
      // 1 MB over at most 81 bytes a token: more than 12,000.
      message: expect.stringMatching(/needs at least 12\d\d\d tokens; this model reads at most 8192/),
    });
  });

  it('refuses what it cannot honour in OpenAI’s error format', async () => {
    await expect(client().chat.completions.create({ model: model.name, messages: CHAT, temperature: 5 })).rejects.toMatchObject({
      status: 400,
      param: 'temperature',
    });
    await expect(
      // @ts-expect-error llama.cpp's field, not in OpenAI's types.
      client().chat.completions.create({ model: model.name, messages: CHAT, repeat_penalty: 0 }),
    ).rejects.toMatchObject({ status: 400, param: 'repeat_penalty' });
    await expect(client().chat.completions.create({ model: model.name, messages: CHAT, n: 2 })).rejects.toMatchObject({
      status: 400,
      param: 'n',
    });
    await expect(client().chat.completions.create({ model: 'gpt-4o', messages: CHAT })).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
    const long = [{ role: 'user' as const, content: 'Paris '.repeat(9000) }];
    await expect(client().chat.completions.create({ model: model.name, messages: long })).rejects.toMatchObject({
      status: 400,
      code: 'context_length_exceeded',
    });
  }, 60_000);

  it('stops serving a revoked key, and the model once the plan no longer includes it', async () => {
    const spare = (await subject.call('POST', '/host/api-keys', { name: 'Spare' })).body as { id: string; key: string };
    await client(spare.key).models.list();
    const revoked = await subject.call('POST', '/host/api-keys/revoke', { id: spare.id });
    expect((revoked.body.keys as { name: string }[]).map((k) => k.name)).not.toContain('Spare');
    await expect(client(spare.key).models.list()).rejects.toMatchObject({ status: 401 });

    await world.staff('PUT', `/models/admin/${model.id}/access/`, { allowed_plans: ['enterprise'] });
    await subject.until((s) => s.models.find((m) => m.name === model.name)?.allowed === false, 10_000, 'the model withdrawn');
    expect((await client().models.list()).data).toEqual([]);
    await expect(client().chat.completions.create({ model: model.name, messages: CHAT })).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
  });
  it('reports what it answered to the platform, counts only: the dashboard shows its requests and tokens', async () => {
    // Sent now, unless the reporter's own turn already sent it.
    expect(['sent', 'nothing']).toContain(await subject.runtime.usage.reporter.flush());
    const usage = (await owner.get('/users/usage-stats/').expect(200)).body.usage;
    const ran = usage.models.find((row: { model: string }) => row.model === model.name);
    // At least the whole and the streamed answer above: 37 prompt and 7 completion tokens each.
    expect(ran).toMatchObject({ requests: expect.any(Number), busy_ms: expect.any(Number) });
    expect(ran.requests).toBeGreaterThanOrEqual(2);
    expect(ran.prompt_tokens).toBeGreaterThanOrEqual(74);
    expect(ran.completion_tokens).toBeGreaterThanOrEqual(14);
    expect(ran.busy_ms).toBeGreaterThan(0);
    expect(usage.devices).toEqual([expect.objectContaining({ device_name: 'Inference host', requests: ran.requests })]);
    expect(await subject.runtime.usage.reporter.flush()).toBe('nothing');
  });
});
