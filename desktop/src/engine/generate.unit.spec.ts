import { ContextLengthError } from './errors';
import { generate, type ForwardPass, type TextStream } from './generate';

/** A model that always answers the next token of a script (whatever it was fed). */
function scripted(script: number[], contextLength = 100): ForwardPass & { fed: number[][] } {
  let length = 0;
  const fed: number[][] = [];
  return {
    fed,
    contextLength,
    get length() {
      return length;
    },
    async forward(ids) {
      fed.push([...ids]);
      length += ids.length;
      const logits = new Float32Array(16);
      logits[script[fed.length - 1] ?? 0] = 1;
      return logits;
    },
    truncate(n) {
      length = Math.min(length, n);
    },
  };
}

/** Token i is the text VOCAB[i]; token 9 and 10 are the two halves of "é" in UTF-8. */
const VOCAB = ['', 'Hel', 'lo', ' wor', 'ld', '\n', 'END', '!', '<', '', '', 'STOP'];
function decoder(): TextStream {
  let bytes: number[] = [];
  return {
    push(id) {
      if (id === 9) bytes.push(0xc3);
      else if (id === 10) bytes.push(0xa9);
      else return VOCAB[id]!;
      const text = Buffer.from(bytes).toString('utf8');
      if (text.includes('\uFFFD')) return '';
      bytes = [];
      return text;
    },
    flush: () => '',
  };
}

describe('generation', () => {
  it('prefills the prompt once, then feeds back one token at a time, and stops at a stop token', async () => {
    const model = scripted([1, 2, 3, 4, 2]);
    const pieces: string[] = [];
    const result = await generate(model, decoder(), [5, 5, 5], { stopTokens: [2, 6], onText: (t) => pieces.push(t) });
    expect(model.fed).toEqual([[5, 5, 5], [1]]);
    expect(result).toMatchObject({ tokens: [1], text: 'Hel', finishReason: 'stop', promptTokens: 3 });
    expect(pieces).toEqual(['Hel']);
  });

  it('a repeat penalty breaks a loop the model would otherwise repeat to the token limit', async () => {
    // Logits that always prefer token 3, then 1, then 4: without a penalty, " wor" forever.
    const looping: ForwardPass = {
      contextLength: 100,
      length: 0,
      forward: async () => Float32Array.from({ length: 16 }, (_, id) => ({ 3: 3, 1: 2.8, 4: 2.75 })[id] ?? 0),
      truncate: () => undefined,
    };
    const plain = await generate(looping, decoder(), [5], { stopTokens: [6], maxTokens: 4 });
    expect(plain.tokens).toEqual([3, 3, 3, 3]);
    const penalised = await generate(looping, decoder(), [5], { stopTokens: [6], maxTokens: 4, repeatPenalty: 1.1 });
    expect(penalised.tokens).toEqual([3, 1, 4, 3]);
    expect(penalised.finishReason).toBe('length');
  });

  it('ends at max tokens with finish reason length', async () => {
    const result = await generate(scripted([1, 3, 3, 3, 3]), decoder(), [5], { stopTokens: [6], maxTokens: 3 });
    expect(result).toMatchObject({ tokens: [1, 3, 3], text: 'Hel wor wor', finishReason: 'length' });
  });

  it('a stop sequence split across tokens ends the answer and is not part of it', async () => {
    const pieces: string[] = [];
    const result = await generate(scripted([1, 2, 8, 11, 4]), decoder(), [5], {
      stopTokens: [6],
      stop: ['<STOP'],
      onText: (t) => pieces.push(t),
    });
    expect(result.text).toBe('Hello');
    expect(result.finishReason).toBe('stop');
    expect(pieces.join('')).toBe('Hello');
  });

  it('text held back for a stop sequence that never comes is still sent', async () => {
    const result = await generate(scripted([1, 8, 4, 6]), decoder(), [5], { stopTokens: [6], stop: ['<STOP'] });
    expect(result).toMatchObject({ text: 'Hel<ld', finishReason: 'stop' });
  });

  it('a character split across two tokens is streamed whole', async () => {
    const pieces: string[] = [];
    const result = await generate(scripted([9, 10, 7, 6]), decoder(), [5], { stopTokens: [6], onText: (t) => pieces.push(t) });
    expect(pieces).toEqual(['é', '!']);
    expect(result.text).toBe('é!');
  });

  it('cancelling stops before the next token', async () => {
    const controller = new AbortController();
    const result = await generate(scripted([1, 2, 3, 4]), decoder(), [5], {
      stopTokens: [6],
      signal: controller.signal,
      onText: () => controller.abort(),
    });
    expect(result).toMatchObject({ tokens: [1], finishReason: 'cancelled' });
  });

  it('a prompt past the context length is refused with a clear error, and the answer stops at the end of the context', async () => {
    await expect(generate(scripted([1], 4), decoder(), [5, 5, 5, 5], { stopTokens: [] })).rejects.toThrow(ContextLengthError);
    await expect(generate(scripted([1], 4), decoder(), [5, 5, 5, 5], { stopTokens: [] })).rejects.toThrow('this model reads at most 4');
    const result = await generate(scripted([3, 3, 3, 3], 4), decoder(), [5, 5], { stopTokens: [], maxTokens: 50 });
    expect(result).toMatchObject({ tokens: [3, 3], finishReason: 'length' });
  });
});
