// roofline-h: TypeScript declarations. Documents are the library's own
// JSON (docs/schema.md of roofline.h), typed loosely where they are large.

/** A JSON document of the library (rfl-estimate / rfl-hw / rfl-reduce /
    rfl-check --json). */
export type Doc = { [key: string]: any };

/** Load the module: wasm bytes, a compiled module, or nothing (beside index.js). */
export function load(source?: ArrayBuffer | Uint8Array | WebAssembly.Module): Promise<WebAssembly.Exports>;

/** The library's error: its message, and where (field, line, column, byte offset). */
export class RooflineError extends Error {
  field: string;
  line: number;
  column: number;
  offset: number;
}

export function list(): { version: string; models: string[]; llms: string[];
  machines: { id: string; name: string; aliases: string; kind: string }[] };

/** rfl-hw NAME --json */
export function hw(name: string): Doc;

export interface EstimateOptions {
  /** a machine name (required: the page's build estimates on a machine) */
  hw: string;
  batch?: number;
  dtype?: 'fp32' | 'tf32' | 'fp16' | 'bf16' | 'fp8' | 'int8' | string;
  mode?: 'infer' | 'train';
  /** an LLM's step; neither phase nor seq: the library's default step */
  phase?: 'prefill' | 'decode';
  seq?: number;
}
/** rfl-estimate MODEL --hw HW --json */
export function estimate(model: string, opts: EstimateOptions): Doc;

export type ByteSource = ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string>
  | Uint8Array | ArrayBuffer | string;
/** rfl-reduce FILE [--hw HW] --json, streamed */
export function reduce(source: ByteSource, opts?: { hw?: string }): Promise<Doc>;

/** rfl-check ANSWERS --json (measured values against the last reduce()) */
export function check(answers: string | Uint8Array | object): Doc;

export interface ChartOptions { width?: number; height?: number; measured?: boolean; png?: boolean }
export function chart(opts?: ChartOptions & { png?: false }): { width: number; height: number; rgba: Uint8Array };
export function chart(opts: ChartOptions & { png: true }): Promise<Uint8Array>;
