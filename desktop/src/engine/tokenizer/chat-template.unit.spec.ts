import { compileChatTemplate } from './chat-template';

const CHATML = `{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\\nYou are helpful<|im_end|>\\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}`;

describe('chat templates', () => {
  it('renders ChatML with a default system prompt when the chat has none', () => {
    expect(compileChatTemplate(CHATML)([{ role: 'user', content: 'Hi' }])).toBe(
      '<|im_start|>system\nYou are helpful<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  it("keeps the chat's own system prompt, and leaves out the generation prompt when asked", () => {
    const text = compileChatTemplate(CHATML)(
      [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'Hi' },
      ],
      { addGenerationPrompt: false },
    );
    expect(text).toBe('<|im_start|>system\nBe brief<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n');
  });

  it('handles set, elif/else, loop.index, trim, is defined, whitespace control and bos_token', () => {
    const template = `{{- bos_token }}{% set sep = ' | ' %}{%- for m in messages -%}
      {% if m.role == 'user' %}{{ loop.index ~ ':' ~ m.content|trim }}{% elif m.role == 'assistant' %}A{% else %}?{% endif %}{{ sep if false }}{% if not loop.last %}{{ sep }}{% endif %}
    {%- endfor %}{% if extra is defined %}X{% endif %}{{ messages|length }}`;
    expect(() => compileChatTemplate(template)).toThrow('Chat template: unexpected "if"');
    const simpler = template.replace('{{ sep if false }}', '');
    const text = compileChatTemplate(simpler)(
      [
        { role: 'user', content: '  hello ' },
        { role: 'assistant', content: 'x' },
        { role: 'tool', content: 'y' },
      ],
      { bosToken: '<s>' },
    );
    expect(text).toBe('<s>1:hello | A | ?3');
  });

  it('raise_exception stops with the template’s own message', () => {
    const template = `{% if messages[0]['role'] == 'assistant' %}{{ raise_exception('Conversations start with the user') }}{% endif %}ok`;
    const render = compileChatTemplate(template);
    expect(render([{ role: 'user', content: 'a' }])).toBe('ok');
    expect(() => render([{ role: 'assistant', content: 'a' }])).toThrow('Chat template: Conversations start with the user');
  });

  it('refuses what it does not support by name, and unclosed blocks', () => {
    expect(() => compileChatTemplate('{% macro x() %}{% endmacro %}')).toThrow('the tag "{% macro x() %}" is not supported');
    expect(() => compileChatTemplate('{{ x|tojson }}')).toThrow('the filter "tojson" is not supported');
    expect(() => compileChatTemplate('{% for m in messages %}')).toThrow('{% for %} is never closed');
  });

  it('a model without a template gets the plain text of the conversation, and says so', () => {
    const render = compileChatTemplate('');
    expect(render.format).toBe('plain');
    expect(
      render([
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'The capital of France is' },
      ]),
    ).toBe('Be brief\n\nThe capital of France is');
  });

  it('a template beyond the subset is written as the family its markers name', () => {
    const chat = [
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: 'Hi ' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Bye' },
    ];
    const options = { bosToken: '<bos>', eosToken: '</s>' };
    // Slices and macros are outside the subset; the markers still name the family.
    const gemma = compileChatTemplate('{% for m in messages[1:] %}<start_of_turn>{% endfor %}');
    expect(gemma.format).toBe('gemma');
    expect(gemma(chat, options)).toBe(
      '<bos><start_of_turn>user\nBe brief\n\nHi<end_of_turn>\n<start_of_turn>model\nHello<end_of_turn>\n<start_of_turn>user\nBye<end_of_turn>\n<start_of_turn>model\n',
    );
    const llama3 = compileChatTemplate('{% macro x() %}<|start_header_id|>{% endmacro %}');
    expect(llama3.format).toBe('llama3');
    expect(llama3(chat.slice(0, 2), options)).toBe(
      '<bos><|start_header_id|>system<|end_header_id|>\n\nBe brief<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
    );
    const mistral = compileChatTemplate('{{ messages|tojson }}[INST]');
    expect(mistral(chat, options)).toBe('<bos>[INST] Be brief\n\nHi [/INST] Hello</s>[INST] Bye [/INST]');
    const phi3 = compileChatTemplate('{{ messages|tojson }}<|user|><|assistant|>');
    expect(phi3(chat.slice(1, 2), options)).toBe('<|user|>\nHi <|end|>\n<|assistant|>\n');
    const chatml = compileChatTemplate('{{ messages|tojson }}<|im_start|>');
    expect(chatml(chat.slice(1, 2), { addGenerationPrompt: false })).toBe('<|im_start|>user\nHi <|im_end|>\n');
    // A template the subset reads is rendered by itself, markers or not.
    expect(compileChatTemplate(CHATML).format).toBe('jinja');
  });
});
