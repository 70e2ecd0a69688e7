// roofline-h: roofline.h's WebAssembly build (web/page.c, the classroom
// page's adapter, the same wasm32 file) as an ES module. The library does
// the work; this file moves bytes in and out of the module's memory and
// parses the library's JSON documents. One module instance, one call at
// a time (the adapter's buffers are static).
let E = null; // the instance's exports

/** Load the module: wasm bytes, a WebAssembly.Module, or nothing (Node:
    roofline.wasm beside this file; a page: fetched from beside it). */
export async function load(source) {
  if (E) return E;
  let bytes = source;
  if (!bytes) {
    const url = new URL('./roofline.wasm', import.meta.url);
    if (url.protocol === 'file:') {
      const { readFile } = await import('node:fs/promises');
      bytes = await readFile(url);
    } else {
      bytes = await (await fetch(url)).arrayBuffer();
    }
  }
  const mod = bytes instanceof WebAssembly.Module ? bytes : await WebAssembly.compile(bytes);
  E = (await WebAssembly.instantiate(mod, {})).exports;
  return E;
}

function need() {
  if (!E) throw new Error('roofline: call `await load()` first');
  return E;
}

/** The library's error: code name, line, column, byte offset, field. */
export class RooflineError extends Error {
  constructor(doc) {
    super(doc.detail ? `${doc.error}: ${doc.detail}` : doc.error);
    this.name = 'RooflineError';
    this.field = doc.field || '';
    this.line = doc.line || 0;
    this.column = doc.col || 0;
    this.offset = doc.offset || 0;
  }
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function put(bytes) {
  const e = need();
  if (bytes.length > e.page_in_size()) throw new RangeError(`input over ${e.page_in_size()} bytes`);
  new Uint8Array(e.memory.buffer, e.page_in(), bytes.length).set(bytes);
  new Uint8Array(e.memory.buffer, e.page_in() + bytes.length, 1)[0] = 0;
}

function answer(len) {
  const e = need();
  if (len < 0) throw new RangeError('roofline: the answer did not fit the module\'s buffer');
  const doc = JSON.parse(dec.decode(new Uint8Array(e.memory.buffer, e.page_out(), len)));
  if (doc && typeof doc.error === 'string') throw new RooflineError(doc);
  return doc;
}

/** The zoo's models, the built-in LLMs and the table's machines. */
export function list() {
  return answer(need().page_list());
}

/** A machine of the table as `rfl-hw NAME --json` writes it. */
export function hw(name) {
  if (typeof name !== 'string') throw new TypeError('hw: a machine name');
  put(enc.encode(name));
  return answer(need().page_hw());
}

function pick(opt, v, a, b) {
  if (v === undefined || v === null) return '';
  if (v !== a && v !== b) throw new TypeError(`${opt} is ${a} or ${b}, not '${v}'`);
  return v;
}

const PAGE_KEYS = ['kind', 'step', 'machine']; // the page's own, beside rfl-estimate's

/** `rfl-estimate MODEL --hw HW --json`: a zoo model or a built-in LLM on a
    machine. opts: batch, dtype, mode (infer|train), phase (prefill|decode),
    seq. The library's default step where phase and seq are not given. */
export function estimate(model, opts = {}) {
  const { hw: machine, batch, dtype = '', mode, phase, seq } = opts;
  if (typeof model !== 'string' || !model) throw new TypeError('estimate: a model name (list().models, list().llms)');
  if (typeof machine !== 'string' || !machine) throw new TypeError('estimate: opts.hw, a machine name (list().machines)');
  if (batch !== undefined && !(Number.isInteger(batch) && batch >= 1))
    throw new RangeError(`batch: a whole number >= 1, not '${batch}'`);
  if (seq !== undefined && !(Number.isInteger(seq) && seq >= 0))
    throw new RangeError(`seq: a whole number >= 0, not '${seq}'`);
  const state = [model, machine, dtype, pick('mode', mode, 'infer', 'train'), pick('phase', phase, 'prefill', 'decode')];
  put(enc.encode(state.join('\0')));
  const doc = answer(need().page_estimate(batch ?? 1, seq ?? -1));
  for (const k of PAGE_KEYS) delete doc[k];
  return doc;
}

async function* chunks(src) {
  if (typeof src === 'string') { yield enc.encode(src); return; }
  if (src instanceof Uint8Array) { yield src; return; }
  if (src instanceof ArrayBuffer) { yield new Uint8Array(src); return; }
  if (src && typeof src.getReader === 'function') { // a web ReadableStream
    const r = src.getReader();
    for (;;) {
      const { value, done } = await r.read();
      if (done) return;
      yield typeof value === 'string' ? enc.encode(value) : value;
    }
  }
  if (src && src[Symbol.asyncIterator]) { // a Node stream
    for await (const v of src) yield typeof v === 'string' ? enc.encode(v) : new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    return;
  }
  throw new TypeError('reduce: a ReadableStream, a Node stream, a Uint8Array or a string');
}

/** `rfl-reduce FILE [--hw HW] --json`: an ncu / nvprof CSV streamed
    through the library's reducer in pieces of at most 1 MiB. */
export async function reduce(source, opts = {}) {
  const e = need();
  put(enc.encode(opts.hw || ''));
  if (opts.hw) hw(opts.hw); // an unknown machine: the error, not a silent none
  put(enc.encode(opts.hw || ''));
  e.page_reduce_begin();
  const max = e.page_in_size();
  for await (const c of chunks(source)) {
    for (let i = 0; i < c.length; i += max) {
      const part = c.subarray(i, Math.min(c.length, i + max));
      new Uint8Array(e.memory.buffer, e.page_in(), part.length).set(part);
      if (e.page_reduce_push(part.length) !== 0) return answer(e.page_reduce_end());
    }
  }
  return answer(e.page_reduce_end());
}

/** `rfl-check ANSWERS --json`: an answer file (text, bytes or object).
    Measured values are checked against the last profile reduce() read
    (none: unchecked). */
export function check(answers) {
  const text = typeof answers === 'string' ? enc.encode(answers)
    : answers instanceof Uint8Array ? answers : enc.encode(JSON.stringify(answers));
  put(text);
  return answer(need().page_check(text.length));
}

/** The roofline of the last estimate's machine with the estimate and,
    when measured, the last profile: { width, height, rgba } or, with
    png: true, the PNG file's bytes (Promise: the deflate is the host's). */
export function chart(opts = {}) {
  const { width = 800, height = 500, measured = true, png = false } = opts;
  const e = need();
  const r = e.page_chart(width, height, measured ? 1 : 0);
  if (r !== 0 && r !== 4 /* RFL_ERR_NO_ROOF: drawn, a point without its roof */) {
    throw new RooflineError({ error: r === 5 /* RFL_ERR_NO_DATA */ ? 'no estimate to draw (estimate() first)' : `chart: error ${r}` });
  }
  const rgba = new Uint8Array(e.memory.buffer, e.page_pixels(), width * height * 4).slice();
  return png ? pngEncode(width, height, rgba) : { width, height, rgba };
}

// ---- PNG: the container around the host's deflate (node:zlib or
// CompressionStream); no pixel is changed. ----
let crcTable = null;
function crc32(bytes) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  out.set(enc.encode(type), 4);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
async function deflate(raw) {
  if (typeof CompressionStream === 'undefined') {
    const z = await import('node:zlib');
    return new Uint8Array(z.deflateSync(raw));
  }
  const s = new Blob([raw]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(s).arrayBuffer());
}
async function pngEncode(w, h, rgba) {
  const raw = new Uint8Array((w * 4 + 1) * h); // filter 0 per row
  for (let y = 0; y < h; y++) raw.set(rgba.subarray(y * w * 4, (y + 1) * w * 4), y * (w * 4 + 1) + 1);
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, w), v.setUint32(4, h);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA
  const parts = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr),
    chunk('IDAT', await deflate(raw)), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) out.set(p, o), (o += p.length);
  return out;
}
