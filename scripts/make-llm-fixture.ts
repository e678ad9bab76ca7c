// Writes the tiny local LLM fixtures (src/interventions/mentor/llm/fixtures.ts) into public/models/<id>/:
// a Llama-shaped ONNX causal LM plus the config and tokenizer files Transformers.js reads.
// Tests run the real Transformers.js loading and generation code on them, offline, in Node and
// in the browser. Deterministic: the same fixtures give the same bytes.
//
//   npx tsx scripts/make-llm-fixture.ts [outDir]      (default: the repo's public/models)
//
// The model ignores what its input tokens say. Its KV cache carries one flag per position, 0 for
// prompt positions and 1 for generated ones, so the number of tokens generated so far is the sum
// of the cache plus one on a decode step; that count picks a row of a logits table whose argmax
// spells the reply and then EOS. Any prompt, greedy or sampled, gives the same reply.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LLM_FIXTURES, type LlmFixture } from '../src/interventions/mentor/llm/fixtures.ts';
import { DataType, encodeModel, float32Data, int64Data, type Graph } from './onnx-writer.ts';

/** ChatML special tokens, ids 0..2, as in SmolLM2-Instruct. */
const SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'] as const;
const BOS_ID = 1;
const EOS_ID = 2;
/** Byte b has token id BYTE_OFFSET + b: a byte-level BPE with no merges. */
const BYTE_OFFSET = SPECIAL_TOKENS.length;
const VOCAB_SIZE = BYTE_OFFSET + 256;
/** Logit of the chosen token (all others are 0): its softmax share is 1 - 3e-12 at T = 1. */
const CHOSEN_LOGIT = 32;
const MAX_LENGTH = 8192;
const OPSET = 17;

const CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** GPT-2's byte-to-unicode map: printable bytes stand for themselves, the rest move to U+0100+. */
function byteToUnicode(): string[] {
  const printable = (b: number) =>
    (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let next = 256;
  return Array.from({ length: 256 }, (_, b) => String.fromCodePoint(printable(b) ? b : next++));
}

function tokenIds(text: string): number[] {
  return [...new TextEncoder().encode(text)].map((b) => BYTE_OFFSET + b);
}

/** The logits table: row i is the logits for generated token i; the last row says EOS. */
function logitsTable(reply: string): Float32Array {
  const ids = [...tokenIds(reply), EOS_ID];
  const table = new Float32Array(ids.length * VOCAB_SIZE);
  ids.forEach((id, row) => (table[row * VOCAB_SIZE + id] = CHOSEN_LOGIT));
  return table;
}

function modelGraph(fixture: LlmFixture): Graph {
  const table = logitsTable(fixture.reply);
  const rows = table.length / VOCAB_SIZE;
  const i64 = (name: string, values: number[], dims = [values.length]) => ({
    name,
    type: DataType.INT64,
    dims,
    data: int64Data(values),
  });
  const cache = ['batch_size', 1, 'past_sequence_length', 1];
  const present = ['batch_size', 1, 'total_sequence_length', 1];
  return {
    name: fixture.id,
    doc: `Fixed-reply fixture: greedily writes ${JSON.stringify(fixture.reply)} whatever the prompt.`,
    inputs: [
      { name: 'input_ids', type: DataType.INT64, shape: ['batch_size', 'sequence_length'] },
      {
        name: 'attention_mask',
        type: DataType.INT64,
        shape: ['batch_size', 'total_sequence_length'],
      },
      { name: 'position_ids', type: DataType.INT64, shape: ['batch_size', 'sequence_length'] },
      { name: 'past_key_values.0.key', type: DataType.FLOAT, shape: cache },
      { name: 'past_key_values.0.value', type: DataType.FLOAT, shape: cache },
    ],
    outputs: [
      {
        name: 'logits',
        type: DataType.FLOAT,
        shape: ['batch_size', 'sequence_length', VOCAB_SIZE],
      },
      { name: 'present.0.key', type: DataType.FLOAT, shape: present },
      { name: 'present.0.value', type: DataType.FLOAT, shape: present },
    ],
    initializers: [
      { name: 'table', type: DataType.FLOAT, dims: [rows, VOCAB_SIZE], data: float32Data(table) },
      i64('zero', [0], []),
      i64('last_row', [rows - 1], []),
      i64('seq_axis', [2], []),
      i64('cache_axes', [1, 2, 3]),
      i64('flag_axes', [1, 3]),
      i64('row_axis', [1]),
      i64('vocab', [VOCAB_SIZE]),
    ],
    nodes: [
      // Decoding (not prefill) when the cache already holds positions.
      { op: 'Shape', inputs: ['past_key_values.0.key'], outputs: ['past_shape'] },
      { op: 'Gather', inputs: ['past_shape', 'seq_axis'], outputs: ['past_len'] },
      { op: 'Greater', inputs: ['past_len', 'zero'], outputs: ['decoding'] },
      { op: 'Cast', inputs: ['decoding'], outputs: ['flag'], attributes: [{ name: 'to', int: 1 }] },
      // Tokens generated so far = generated flags in the cache + this step's own token.
      {
        op: 'ReduceSum',
        inputs: ['past_key_values.0.key', 'cache_axes'],
        outputs: ['flags_seen'],
        attributes: [{ name: 'keepdims', int: 0 }],
      },
      { op: 'Add', inputs: ['flags_seen', 'flag'], outputs: ['step_f'] },
      { op: 'Cast', inputs: ['step_f'], outputs: ['step'], attributes: [{ name: 'to', int: 7 }] },
      { op: 'Min', inputs: ['step', 'last_row'], outputs: ['row'] },
      // Every position gets that row's logits: [batch, seq, vocab].
      { op: 'Gather', inputs: ['table', 'row'], outputs: ['row_logits'] },
      { op: 'Unsqueeze', inputs: ['row_logits', 'row_axis'], outputs: ['row_logits3'] },
      { op: 'Shape', inputs: ['input_ids'], outputs: ['ids_shape'] },
      {
        op: 'Concat',
        inputs: ['ids_shape', 'vocab'],
        outputs: ['logits_shape'],
        attributes: [{ name: 'axis', int: 0 }],
      },
      { op: 'Expand', inputs: ['row_logits3', 'logits_shape'], outputs: ['logits'] },
      // Append this step's flag for each new position: [batch, 1, seq, 1].
      { op: 'Expand', inputs: ['flag', 'ids_shape'], outputs: ['step_flags'] },
      { op: 'Unsqueeze', inputs: ['step_flags', 'flag_axes'], outputs: ['new_flags'] },
      {
        op: 'Concat',
        inputs: ['past_key_values.0.key', 'new_flags'],
        outputs: ['present.0.key'],
        attributes: [{ name: 'axis', int: 2 }],
      },
      {
        op: 'Concat',
        inputs: ['past_key_values.0.value', 'new_flags'],
        outputs: ['present.0.value'],
        attributes: [{ name: 'axis', int: 2 }],
      },
    ],
  };
}

/** JSON laid out as Prettier would (short arrays inline), so `prettier --check` accepts it. */
function json(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) {
      return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    }
    return `[\n${value.map((v) => inner + json(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).map(
    ([k, v]) => `${inner}${JSON.stringify(k)}: ${json(v, inner)}`,
  );
  return entries.length ? `{\n${entries.join(',\n')}\n${indent}}` : '{}';
}

function configJson(): unknown {
  return {
    architectures: ['LlamaForCausalLM'],
    model_type: 'llama',
    vocab_size: VOCAB_SIZE,
    hidden_size: 1,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    num_key_value_heads: 1,
    head_dim: 1,
    max_position_embeddings: MAX_LENGTH,
    bos_token_id: BOS_ID,
    eos_token_id: EOS_ID,
    use_cache: true,
    // Without this the browser's WASM device would look for onnx/model_quantized.onnx (q8).
    'transformers.js_config': { dtype: 'fp32' },
  };
}

function generationConfigJson(): unknown {
  return { bos_token_id: BOS_ID, eos_token_id: EOS_ID, pad_token_id: EOS_ID };
}

function addedToken(content: string, id: number) {
  return {
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  };
}

function tokenizerJson(): unknown {
  const vocab: Record<string, number> = {};
  SPECIAL_TOKENS.forEach((t, id) => (vocab[t] = id));
  byteToUnicode().forEach((ch, b) => (vocab[ch] = BYTE_OFFSET + b));
  const byteLevel = {
    type: 'ByteLevel',
    add_prefix_space: false,
    trim_offsets: true,
    use_regex: true,
  };
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map(addedToken),
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: byteLevel,
    decoder: byteLevel,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: [],
    },
  };
}

function tokenizerConfigJson(): unknown {
  return {
    add_prefix_space: false,
    added_tokens_decoder: Object.fromEntries(
      SPECIAL_TOKENS.map((t, id) => {
        const { id: _, ...rest } = addedToken(t, id);
        return [String(id), rest];
      }),
    ),
    bos_token: SPECIAL_TOKENS[BOS_ID],
    eos_token: SPECIAL_TOKENS[EOS_ID],
    pad_token: SPECIAL_TOKENS[EOS_ID],
    unk_token: SPECIAL_TOKENS[0],
    chat_template: CHAT_TEMPLATE,
    clean_up_tokenization_spaces: false,
    model_max_length: MAX_LENGTH,
    tokenizer_class: 'GPT2Tokenizer',
  };
}

/** Every file of one fixture, by path relative to its folder. */
function fixtureFiles(fixture: LlmFixture): Map<string, Uint8Array | string> {
  return new Map<string, Uint8Array | string>([
    ['config.json', json(configJson()) + '\n'],
    ['generation_config.json', json(generationConfigJson()) + '\n'],
    ['tokenizer.json', json(tokenizerJson()) + '\n'],
    ['tokenizer_config.json', json(tokenizerConfigJson()) + '\n'],
    [
      'onnx/model.onnx',
      encodeModel({ graph: modelGraph(fixture), opset: OPSET, producer: 'mentor-playground' }),
    ],
  ]);
}

/** Writes every fixture into `outDir/<id>/`. */
export function writeFixtures(outDir: string): void {
  for (const fixture of LLM_FIXTURES) {
    for (const [path, content] of fixtureFiles(fixture)) {
      const file = join(outDir, fixture.id, path);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, content);
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ?? fileURLToPath(new URL('../public/models', import.meta.url));
  writeFixtures(outDir);
  console.log(`Wrote ${LLM_FIXTURES.map((f) => f.id).join(', ')} to ${outDir}/`);
}
