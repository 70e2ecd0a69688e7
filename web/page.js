/* page.js - the classroom page: the controls, the URL state, and what
   the library (web/page.c as WebAssembly) answers, shown as text.
   Every number from the library is shown in an element with
   data-field="KEY" (the key path in rfl-estimate --json or rfl-reduce
   --json; the section's data-source says which) and data-value="EXACT"
   (the value as those tools print it). Text from files (kernel and model
   names, warnings) only ever goes in through textContent. */
'use strict';
(function () {
  const WASM_BASE64 = '@WASM@';
  const CHUNK = 1 << 20; /* the reducer takes a dropped file 1 MiB at a time */
  const READ = 8 << 20;  /* read from the file in 8 MiB slices: each read is a
                            trip through the browser's processes */
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  let E = null; /* the module's exports */
  let lists = null;
  let last = null; /* the last estimate */
  let profile = null; /* the last reduced profile */
  const $ = (id) => document.getElementById(id);

  /* ---- the module ---------------------------------------------------- */
  function bytes() { return new Uint8Array(E.memory.buffer); }
  function cstr(ptr, n) { return dec.decode(bytes().subarray(ptr, ptr + n)); }
  function answer(n) {
    if (n < 0) throw new Error('the answer did not fit the page\'s buffer');
    return JSON.parse(cstr(E.page_out(), n));
  }
  function putStrings(list) {
    const b = enc.encode(list.join('\0') + '\0');
    if (b.length > E.page_in_size()) throw new Error('input too long');
    bytes().set(b, E.page_in());
  }
  /* the exact value as the tools' JSON prints it (counts in full; other
     numbers through rfl_fmt_num with 15 significant digits) */
  function exact(v) {
    if (v === null || v === undefined) return 'null';
    if (typeof v !== 'number') return String(v);
    if (Number.isSafeInteger(v)) return String(v); /* counts: every digit, as %llu */
    return cstr(E.page_fmt(), E.page_fmt_num(v, 15));
  }
  /* "19.5 T" (rfl_fmt_si, the CLI tables' format) */
  function si(v, unit, sig) {
    if (v === null || v === undefined) return 'unknown';
    const t = cstr(E.page_fmt(), E.page_fmt_si(v, sig || 4));
    return unit ? t + unit : t.trimEnd();
  }
  /* a plain number as the CLI prints it (AI 0.498, not "498.4 m") */
  function plain(v, sig) {
    if (v === null || v === undefined) return 'unknown';
    return cstr(E.page_fmt(), E.page_fmt_num(v, sig || 4));
  }
  function commas(v) {
    if (v === null || v === undefined) return 'unknown';
    return Number.isInteger(v) ? v.toLocaleString('en-US') : exact(v);
  }

  /* ---- DOM helpers: text only ----------------------------------------- */
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    for (const c of kids) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  }
  /* a number from the library: its key, its exact value, a readable text */
  function num(field, v, text) {
    return el('span', { 'data-field': field, 'data-value': exact(v), class: 'num' },
              text === undefined ? exact(v) : text);
  }
  function get(obj, path) {
    return path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
  }

  /* ---- state in the URL ------------------------------------------------ */
  const KEYS = ['model', 'hw', 'batch', 'mode', 'dtype', 'phase', 'seq', 'runtime'];
  const state = { model: 'resnet18', hw: 'h100', batch: '1', mode: 'infer', dtype: '', phase: 'decode', seq: '1024', runtime: '' };
  const RUNTIMES = ['', 'eager', 'graphs', 'fused']; /* 0: the library's default; then rfl_runtime's order */
  function isLLM(m) { return lists.llms.some((x) => x.toLowerCase() === String(m).toLowerCase()); }
  function readURL() {
    const q = new URLSearchParams(location.search);
    for (const k of KEYS) if (q.get(k) !== null && q.get(k) !== '') state[k] = q.get(k);
  }
  function writeURL() {
    const q = new URLSearchParams();
    const llm = isLLM(state.model);
    for (const k of KEYS) {
      if (llm && k === 'mode') continue;
      if (!llm && (k === 'phase' || k === 'seq')) continue;
      if ((k === 'dtype' || k === 'runtime') && !state[k]) continue;
      q.set(k, state[k]);
    }
    try { history.replaceState(null, '', '?' + q.toString()); } catch (e) { /* file:// in some browsers */ }
  }

  /* ---- the controls ---------------------------------------------------- */
  function fillSelect(sel, groups, value) {
    sel.textContent = '';
    for (const [label, items] of groups) {
      const parent = label ? el('optgroup', { label }) : sel;
      for (const [v, text] of items) parent.append(el('option', { value: v }, text));
      if (label) sel.append(parent);
    }
    sel.value = value;
  }
  function machineId(name) {
    const norm = (s) => s.toLowerCase().replace(/[-_ .]/g, '');
    const n = norm(name);
    const m = lists.machines.find((x) => norm(x.id) === n || norm(x.name) === n ||
      (x.aliases || '').split(',').some((a) => a && norm(a) === n));
    return m ? m.id : '';
  }
  function setupControls() {
    fillSelect($('model'), [
      ['Vision models (torchvision)', lists.models.map((m) => [m, m])],
      ['Language models (decoder LLMs)', lists.llms.map((m) => [m, m])],
    ], state.model);
    fillSelect($('hw'), [
      ['GPUs', lists.machines.filter((m) => m.kind === 'gpu').map((m) => [m.id, m.name])],
      ['Other', lists.machines.filter((m) => m.kind !== 'gpu').map((m) => [m.id, m.name])],
    ], machineId(state.hw));
    syncControls();
    $('controls').addEventListener('change', (ev) => {
      const t = ev.target;
      if (!KEYS.includes(t.name)) return;
      state[t.name] = t.value;
      if (t.name === 'model') { state.dtype = ''; syncControls(); }
      update();
    });
    $('copy-link').addEventListener('click', () => {
      const done = () => { $('copy-link').textContent = 'Link copied'; setTimeout(() => { $('copy-link').textContent = 'Copy link to this setup'; }, 1500); };
      if (navigator.clipboard) navigator.clipboard.writeText(location.href).then(done, () => window.prompt('Copy this link:', location.href));
      else window.prompt('Copy this link:', location.href);
    });
  }
  function syncControls() {
    const llm = isLLM(state.model);
    document.body.classList.toggle('is-llm', llm);
    const types = llm ? [['', 'the model\'s own'], ['fp32', 'fp32'], ['fp16', 'fp16'], ['bf16', 'bf16'], ['fp8', 'fp8'], ['int8', 'int8']]
                      : [['fp32', 'fp32'], ['fp16', 'fp16 (tensor cores)'], ['bf16', 'bf16 (tensor cores)'], ['int8', 'int8 (tensor cores)']];
    fillSelect($('dtype'), [[null, types]], state.dtype || (llm ? '' : 'fp32'));
    $('batch').value = state.batch;
    $('mode').value = state.mode === 'train' ? 'train' : 'infer';
    $('phase').value = state.phase === 'prefill' ? 'prefill' : 'decode';
    $('seq').value = state.seq;
    $('runtime').value = RUNTIMES.includes(state.runtime) ? state.runtime : '';
  }

  /* ---- the estimate ---------------------------------------------------- */
  function cliLine(j) {
    /* the machine's id (a name such as "NVIDIA A100-SXM4-80GB" has spaces) */
    const a = ['rfl-estimate', j.model, '--hw', (j.machine && j.machine.id) || state.hw, '--batch', String(j.batch)];
    if (j.kind === 'llm') a.push('--phase', j.phase, '--seq', String(j.seq));
    else a.push('--mode', j.mode);
    if (state.dtype || j.kind !== 'llm') a.push('--dtype', j.dtype);
    a.push('--forecast');
    if (state.runtime) a.push('--runtime', state.runtime);
    a.push('--json');
    return a.map((x) => (/^[A-Za-z0-9._\/=:,+-]+$/.test(x) ? x : "'" + x.replace(/'/g, "'\\''") + "'")).join(' ');
  }
  function row(dl, term, ...dd) {
    dl.append(el('dt', {}, term), el('dd', {}, ...dd));
  }
  function showNumbers(j) {
    const dl = $('numbers');
    dl.textContent = '';
    const m = j.machine;
    row(dl, 'Model', num('model', j.model, j.model), ', batch ', num('batch', j.batch), ', ', num('dtype', j.dtype, j.dtype),
        j.kind === 'llm' ? ', ' + j.phase + (j.phase === 'decode' ? ' after ' : ' of ') : '',
        j.kind === 'llm' ? num('seq', j.seq) : '', j.kind === 'llm' ? ' tokens' : '');
    row(dl, 'Parameters', num('params', j.params, commas(j.params)), ' (', num('param_bytes', j.param_bytes, si(j.param_bytes, 'B')), ' of weights)');
    if (j.kind === 'llm') {
      row(dl, 'FLOPs of the step', num('forward.flops', j.forward.flops, si(j.forward.flops, 'FLOP')),
          ' (', num('forward.mac_flops', j.forward.mac_flops, si(j.forward.mac_flops, 'FLOP')), ' counting attention eagerly, as PyTorch does)');
      row(dl, 'Bytes moved', num('forward.bytes', j.forward.bytes, si(j.forward.bytes, 'B')), ': weights ',
          num('bytes.weights', j.bytes.weights, si(j.bytes.weights, 'B')), ', KV cache read ',
          num('bytes.kv_read', j.bytes.kv_read, si(j.bytes.kv_read, 'B')), ', written ',
          num('bytes.kv_write', j.bytes.kv_write, si(j.bytes.kv_write, 'B')));
      row(dl, 'KV cache after the step', num('kv_cache_bytes', j.kv_cache_bytes, si(j.kv_cache_bytes, 'B')));
    } else {
      row(dl, 'FLOPs, forward', num('forward.flops', j.forward.flops, si(j.forward.flops, 'FLOP')),
          ' (multiply-adds only: ', num('forward.mac_flops', j.forward.mac_flops, si(j.forward.mac_flops, 'FLOP')), ')');
      if (j.mode === 'train')
        row(dl, 'FLOPs, backward', num('backward.flops', j.backward.flops, si(j.backward.flops, 'FLOP')));
      row(dl, 'Bytes moved', 'forward ', num('forward.bytes', j.forward.bytes, si(j.forward.bytes, 'B')),
          j.mode === 'train' ? ', backward ' : '', j.mode === 'train' ? num('backward.bytes', j.backward.bytes, si(j.backward.bytes, 'B')) : '');
    }
    row(dl, 'Arithmetic intensity', num('step.ai', j.step.ai, plain(j.step.ai) + ' FLOP/B'),
        ' (machine\'s ridge: ', num('machine.ridge_flop_per_byte', m.ridge_flop_per_byte, plain(m.ridge_flop_per_byte) + ' FLOP/B'), ')');
    row(dl, 'Predicted time (at best)', el('b', {}, num('predicted_time_s', j.predicted_time_s, si(j.predicted_time_s, 's'))),
        ' on ', num('hw', j.hw, m.name), ', ', el('b', {}, num('bound', j.bound, j.bound + '-bound')));
    if (j.kind === 'llm') {
      row(dl, 'Tokens per second', num('tokens_per_s', j.tokens_per_s, plain(j.tokens_per_s)),
          j.phase === 'prefill' ? ', time to first token ' : '', j.phase === 'prefill' ? num('ttft_s', j.ttft_s, si(j.ttft_s, 's')) : '');
      row(dl, 'Compute-bound from batch',
          num('decode_compute_bound_batch', j.decode_compute_bound_batch, j.decode_compute_bound_batch === null ? 'never, up to batch 65536 (each sequence brings its own KV cache to read)' : commas(j.decode_compute_bound_batch)),
          ...(j.gemm_compute_bound_batch !== null && j.gemm_compute_bound_batch !== undefined ? ['; its weight GEMMs from batch ', num('gemm_compute_bound_batch', j.gemm_compute_bound_batch, commas(j.gemm_compute_bound_batch))] : []),
          ...(j.max_batch_in_memory !== null ? ['; memory holds at most ', num('max_batch_in_memory', j.max_batch_in_memory, commas(j.max_batch_in_memory)), ' sequences'] : []));
    }
    showForecast(dl, j);
    (j.warnings || []).forEach((x, i) => row(dl, 'Warning', el('b', {}, num('warnings.' + i + '.code', x.code, x.code)), ': ',
                                             el('span', { 'data-field': 'warnings.' + i + '.text' }, x.text)));
  }

  /* The forecast beside the bound: what a real framework's step takes. */
  function showForecast(dl, j) {
    const f = j.forecast;
    if (!f) { row(dl, 'Forecast', 'none: ', el('span', {}, j.forecast_error || 'unknown')); return; }
    const rt = f.runtime ? num('forecast.runtime', f.runtime, f.runtime === 'eager' ? 'eager PyTorch' : 'PyTorch in CUDA graphs')
                         : 'a fused engine';
    row(dl, 'Forecast step time', el('b', {}, num('forecast.step_time_s', f.step_time_s, si(f.step_time_s, 's'))), ' (', rt, '), ',
        num('step.forecast_over_bound', f.step_time_s / f.bound_s, plain(f.step_time_s / f.bound_s, 3)), ' × the bound ',
        num('forecast.bound_s', f.bound_s, si(f.bound_s, 's')), '; the largest term: ', num('forecast.main_term', f.main_term, f.main_term));
    if (f.runtime)
      row(dl, 'GPU and host', 'GPU ', num('forecast.gpu_time_s', f.gpu_time_s, si(f.gpu_time_s, 's')), ' for ',
          num('forecast.kernels', f.kernels, commas(Math.round(f.kernels))), ' kernels; host ', num('forecast.host_time_s', f.host_time_s, si(f.host_time_s, 's')),
          ' for ', num('forecast.host_ops', f.host_ops, commas(f.host_ops)), ' ops: ', el('b', {}, num('forecast.binds', f.binds, f.binds === 'host' ? 'the host binds' : 'the GPU binds')));
    row(dl, 'Forecast basis', num('forecast.basis', f.basis, f.basis));
  }

  function explain(j) {
    const ol = $('formulas');
    ol.textContent = '';
    const m = j.machine;
    const li = (...k) => ol.append(el('li', {}, ...k));
    const F = j.step.flops, B = j.step.bytes;
    if (j.kind === 'llm') {
      li(el('b', {}, 'FLOPs'), ': every weight is used once per new token in a multiply-add (2 FLOPs), so FLOPs ≈ 2 × parameters × tokens, plus attention over the cache: ',
         num('forward.flops', j.forward.flops, commas(j.forward.flops)), ' FLOP for ', num('tokens', j.tokens), ' token(s).');
      li(el('b', {}, 'Bytes'), ' = weights + KV cache read + KV cache written + activations = ',
         num('bytes.weights', j.bytes.weights, commas(j.bytes.weights)), ' + ', num('bytes.kv_read', j.bytes.kv_read, commas(j.bytes.kv_read)), ' + ',
         num('bytes.kv_write', j.bytes.kv_write, commas(j.bytes.kv_write)), ' + ', num('bytes.activations', j.bytes.activations, commas(j.bytes.activations)),
         ' = ', num('forward.bytes', j.forward.bytes, commas(j.forward.bytes)), ' B. In decode the whole model is read for each step: that is why decode is memory-bound.');
    } else {
      li(el('b', {}, 'FLOPs'), ': a multiply-add is 2 FLOPs; a convolution does 2 × C', el('sub', {}, 'in'), '/groups × K', el('sub', {}, 'h'), ' × K', el('sub', {}, 'w'),
         ' × C', el('sub', {}, 'out'), ' × H', el('sub', {}, 'out'), ' × W', el('sub', {}, 'out'), ' × batch (section 6 lists each layer). ',
         j.mode === 'train' ? 'A training step is forward + backward = ' : 'Inference is the forward pass: ',
         num('forward.flops', j.forward.flops, commas(j.forward.flops)),
         ...(j.mode === 'train' ? [' + ', num('backward.flops', j.backward.flops, commas(j.backward.flops)), ' = ', num('step.flops', F, commas(F))] : []), ' FLOP.',
         ...(j.mode === 'train' ? [' Backward ≈ 2 × forward (the gradients of the weights and of the inputs), minus the first layer\'s input gradient: ratio ',
           num('step.backward_ratio', j.backward.flops / j.forward.flops, plain(j.backward.flops / j.forward.flops)), '.'] : []));
      li(el('b', {}, 'Bytes'), ': each layer reads its inputs and weights and writes its output (',
         j.dtype === 'fp32' ? '4' : j.dtype === 'int8' ? '1' : '2', ' bytes per number): ',
         num('forward.bytes', j.forward.bytes, commas(j.forward.bytes)),
         ...(j.mode === 'train' ? [' + ', num('backward.bytes', j.backward.bytes, commas(j.backward.bytes)), ' (backward)'] : []), ' = ', num('step.bytes', B, commas(B)), ' B.');
    }
    li(el('b', {}, 'Arithmetic intensity'), ' AI = FLOPs / bytes = ', num('step.flops', F, si(F, 'FLOP')), ' / ', num('step.bytes', B, si(B, 'B')), ' = ',
       num('step.ai', j.step.ai, plain(j.step.ai) + ' FLOP/B'), '.');
    li(el('b', {}, 'Ridge'), ' of the ', m.name, ' (', m.prec, ' roof) = peak / bandwidth = ', num('machine.peak_flops_per_s', m.peak_flops_per_s, si(m.peak_flops_per_s, 'FLOP/s')),
       ' / ', num('machine.bandwidth_bytes_per_s', m.bandwidth_bytes_per_s, si(m.bandwidth_bytes_per_s, 'B/s')), ' = ',
       num('machine.ridge_flop_per_byte', m.ridge_flop_per_byte, plain(m.ridge_flop_per_byte) + ' FLOP/B'),
       '. Use the peak of the precision the work runs in (here ', m.prec, ')', m.prec === 'fp32' ? ': FP32 work never reaches a tensor-core peak.' : '.');
    li(el('b', {}, 'Attainable'), ' = min(peak, AI × bandwidth) = min(', si(m.peak_flops_per_s, 'FLOP/s'), ', ', plain(j.step.ai), ' × ', si(m.bandwidth_bytes_per_s, 'B/s'), ') = ',
       num('step.attainable_flops_per_s', j.step.attainable_flops_per_s, si(j.step.attainable_flops_per_s, 'FLOP/s')), ': ',
       j.step.ai < m.ridge_flop_per_byte ? 'AI is left of the ridge, so memory limits it.' : 'AI is right of the ridge, so the arithmetic units limit it.');
    if (j.kind === 'llm') {
      li(el('b', {}, 'Predicted time'), ' = sum over the model\'s parts of max(FLOPs / peak, bytes / bandwidth) = ',
         num('predicted_time_s', j.predicted_time_s, si(j.predicted_time_s, 's')), ' (compute ', num('compute_s', j.compute_s, si(j.compute_s, 's')),
         ', memory ', num('memory_s', j.memory_s, si(j.memory_s, 's')), '); tokens/s = ', j.phase === 'decode' ? 'batch' : 'batch × sequence', ' / time = ',
         num('tokens_per_s', j.tokens_per_s, plain(j.tokens_per_s)), '.');
    } else {
      li(el('b', {}, 'Predicted time'), ', whole model at once = max(FLOPs / peak, bytes / bandwidth) = max(',
         num('step.whole_compute_s', j.step.whole_compute_s, si(j.step.whole_compute_s, 's')), ', ', num('step.whole_memory_s', j.step.whole_memory_s, si(j.step.whole_memory_s, 's')), ') = ',
         num('whole_model_time_s', j.whole_model_time_s, si(j.whole_model_time_s, 's')), '. Layer by layer, each layer is bound by one or the other: the sum of max(...) per layer is ',
         num('predicted_time_s', j.predicted_time_s, si(j.predicted_time_s, 's')), ' (', num('compute_bound_layers', j.compute_bound_layers), ' layers compute-bound, ',
         num('memory_bound_layers', j.memory_bound_layers), ' memory-bound): the estimate shown above.');
    }
    if (profile && !profile.error) {
      const p = profile;
      li(el('b', {}, 'Your profile'), ': AI = measured FLOPs / DRAM bytes = ', num('profile.flops.total', p.flops.total, si(p.flops.total, 'FLOP')), ' / ',
         num('profile.bytes.dram', p.bytes.dram, si(p.bytes.dram, 'B')), ' = ', num('profile.ai.dram', p.ai.dram, plain(p.ai.dram) + ' FLOP/B'),
         '; achieved = FLOPs / time = ', num('profile.flops_per_s', p.flops_per_s, si(p.flops_per_s, 'FLOP/s')),
         ...(p.roof_fraction !== undefined ? ['; that is ', num('profile.roof_fraction', p.roof_fraction, p.roof_fraction === null ? 'unknown' : plain(100 * p.roof_fraction, 3) + '%'), ' of the roof at that AI', ...(p.roof_text ? [' (', num('profile.roof_text', p.roof_text, p.roof_text), ')'] : []), '.'] : ['.']));
      if (p.time_s && j.predicted_time_s)
        li(el('b', {}, 'Measured / predicted time'), ' = ', num('profile.time_s', p.time_s, si(p.time_s, 's')), ' / ', num('predicted_time_s', j.predicted_time_s, si(j.predicted_time_s, 's')), ' = ',
           num('step.measured_over_predicted', p.time_s / j.predicted_time_s, plain(p.time_s / j.predicted_time_s, 3)),
           '. The roofline is an upper bound on speed: small batches leave most of the chip idle, and each kernel launch costs a few microseconds, so real runs are slower. Check too that the profile is of the same model, batch, mode and precision as the estimate.');
      if (p.time_s && j.forecast && j.forecast.gpu_time_s)
        li(el('b', {}, 'Measured / forecast GPU time'), ' = ', num('profile.time_s', p.time_s, si(p.time_s, 's')), ' / ',
           num('forecast.gpu_time_s', j.forecast.gpu_time_s, si(j.forecast.gpu_time_s, 's')), ' = ',
           num('step.measured_over_forecast', p.time_s / j.forecast.gpu_time_s, plain(p.time_s / j.forecast.gpu_time_s, 3)),
           ': the forecast times each kernel from its shape, plus a fixed cost each (section 1); Nsight Compute flushes the caches before each kernel, so its times run longer than a trace\'s.');
    }
  }

  function showLayers(j) {
    const t = $('layer-table');
    t.textContent = '';
    const train = j.mode === 'train';
    const head = ['#', 'layer', 'type', 'output', 'params', 'forward FLOPs', 'forward bytes'];
    if (train) head.push('backward FLOPs');
    head.push('time', 'bound');
    t.append(el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {}, h)))));
    const body = el('tbody', {});
    j.layers.forEach((L, i) => {
      const f = (k) => 'layers.' + i + '.' + k;
      const cells = [el('td', {}, String(i)), el('td', { class: 'name' }, num(f('name'), L.name, L.name)), el('td', {}, L.type),
        el('td', {}, '[' + L.out.join(', ') + ']'),
        el('td', {}, num(f('params'), L.params, commas(L.params))),
        el('td', {}, num(f('forward_flops'), L.forward_flops, si(L.forward_flops, ''))),
        el('td', {}, num(f('forward_bytes'), L.forward_bytes, si(L.forward_bytes, 'B')))];
      if (train) cells.push(el('td', {}, num(f('backward_flops'), L.backward_flops, si(L.backward_flops, ''))));
      cells.push(el('td', {}, num(f('predicted_time_s'), L.predicted_time_s, L.predicted_time_s > 0 ? si(L.predicted_time_s, 's') : '-')),
                 el('td', {}, num(f('bound'), L.bound, L.bound || '-')));
      body.append(el('tr', {}, ...cells));
    });
    t.append(body);
  }

  function drawChart() {
    const c = $('chart');
    const w = c.width, h = c.height;
    E.page_chart(w, h, profile && !profile.error ? 1 : 0);
    const px = new Uint8ClampedArray(E.memory.buffer, E.page_pixels(), w * h * 4);
    c.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(px), w, h), 0, 0);
  }

  function update() {
    writeURL();
    const llm = isLLM(state.model);
    putStrings([state.model, state.hw, state.dtype, llm ? '' : state.mode, llm ? state.phase : '']);
    /* a step (phase, seq) is an LLM's: the library refuses one for a CNN */
    const j = answer(E.page_estimate(Number(state.batch) || 1, llm ? Number(state.seq) || 0 : -1, 1 + Math.max(0, RUNTIMES.indexOf(state.runtime))));
    const err = $('error');
    if (j.error) {
      err.hidden = false;
      err.textContent = 'Cannot estimate this setup: ' + j.error + (j.detail ? ' (' + j.detail + ')' : '');
      /* no stale numbers beside the message */
      last = null;
      for (const id of ['numbers', 'formulas', 'layer-table', 'cli']) $(id).textContent = '';
      $('chart').getContext('2d').clearRect(0, 0, $('chart').width, $('chart').height);
      document.body.dataset.ready = 'error';
      return;
    }
    err.hidden = true;
    last = j;
    $('cli').textContent = cliLine(j);
    showNumbers(j);
    explain(j);
    showLayers(j);
    drawChart();
    document.body.dataset.ready = 'yes';
  }

  /* ---- a dropped profile: streamed through the reducer ----------------- */
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()();
  function yieldTask() { return new Promise((r) => { waiting.push(r); channel.port2.postMessage(0); }); }
  async function reduceFile(file) {
    const status = $('prof-status'), bar = $('progress');
    const t0 = performance.now();
    profile = null;
    $('prof-numbers').textContent = $('prof-warnings').textContent = $('prof-top').textContent = '';
    status.textContent = '';
    status.append('Reading ', el('span', { class: 'file-name' }, file.name), ' (' + si(file.size, 'B') + ')...');
    bar.hidden = false; bar.max = file.size || 1; bar.value = 0;
    document.body.dataset.reduce = 'running';
    putStrings([last ? last.hw : state.hw]);
    E.page_reduce_begin();
    let rc = 0, pushMs = 0, done = 0;
    const push = (piece) => { /* at most CHUNK bytes at a time into the module */
      for (let k = 0; k < piece.length && rc === 0; k += CHUNK) {
        const part = piece.subarray(k, k + CHUNK);
        const t = performance.now();
        bytes().set(part, E.page_in());
        rc = E.page_reduce_push(part.length);
        pushMs += performance.now() - t;
        done += part.length;
      }
      bar.value = done;
    };
    /* Read READ bytes at a time (File.slice; the next read is asked for
       while this one is reduced), give the reducer CHUNK bytes at a time,
       and yield a task between chunks so the page draws and takes input.
       (A File.stream() reader resolves buffered pieces as microtasks: it
       froze the page for seconds. setTimeout(0) is clamped to 4 ms.) */
    const read = (off) => file.slice(off, off + READ).arrayBuffer();
    let next = read(0);
    for (let off = READ; rc === 0; off += READ) {
      const buf = new Uint8Array(await next);
      if (!buf.length) break;
      next = off < file.size ? read(off) : Promise.resolve(new ArrayBuffer(0));
      for (let k = 0; k < buf.length && rc === 0; k += CHUNK) {
        push(buf.subarray(k, k + CHUNK));
        await yieldTask();
      }
    }
    window.roofline.lastReduce = { pushMs, bytes: done };
    const j = answer(E.page_reduce_end());
    const ms = performance.now() - t0;
    bar.hidden = true;
    profile = j;
    status.textContent = '';
    if (j.error) {
      status.append(el('span', { class: 'error' }, 'Could not read ', file.name, ' at line ' + j.line + ', column ' + j.col + ': ', j.error));
      document.body.dataset.reduce = 'error';
    } else {
      status.append(el('span', { class: 'file-name' }, file.name), ': ', j.format, ', ' + commas(j.kernels) + ' kernels, reduced in ',
                    el('span', { id: 'reduce-ms' }, ms.toFixed(0)), ' ms.');
      showProfile(j);
      document.body.dataset.reduce = 'done';
    }
    if (last) { explain(last); drawChart(); }
    return ms;
  }

  function showProfile(j) {
    const dl = $('prof-numbers');
    const r = (t, ...k) => dl.append(el('dt', {}, t), el('dd', {}, ...k));
    r('Kernel time', num('time_s', j.time_s, si(j.time_s, 's')));
    r('FLOPs', num('flops.total', j.flops.total, j.flops.total === null ? 'not measured' : si(j.flops.total, 'FLOP')),
      ' (fp32 ', num('flops.fp32', j.flops.fp32, si(j.flops.fp32, 'FLOP')), ', fp16 ', num('flops.fp16', j.flops.fp16, si(j.flops.fp16, 'FLOP')),
      ', tensor ', num('flops.tensor', j.flops.tensor, si(j.flops.tensor, 'FLOP')), ')');
    r('DRAM bytes', num('bytes.dram', j.bytes.dram, si(j.bytes.dram, 'B')));
    r('Arithmetic intensity', num('ai.dram', j.ai.dram, plain(j.ai.dram) + ' FLOP/B'));
    r('Achieved', num('flops_per_s', j.flops_per_s, si(j.flops_per_s, 'FLOP/s')));
    if ('roof_fraction' in j)
      r('Share of the roof', num('roof_fraction', j.roof_fraction, j.roof_fraction === null ? 'unknown' : plain(100 * j.roof_fraction, 3) + '%'), ' on ', num('hw', j.hw, j.hw),
        ...(j.roof_text ? [' (', num('roof_text', j.roof_text, j.roof_text), ')'] : []));
    const w = $('prof-warnings');
    if (j.warnings.length) {
      w.append(el('h3', {}, 'What to check'));
      const ul = el('ul', { class: 'warnings' });
      j.warnings.forEach((x, i) => ul.append(el('li', {}, num('warnings.' + i + '.code', x.code, x.code), ': ', el('span', { 'data-field': 'warnings.' + i + '.text' }, x.text))));
      w.append(ul);
    }
    if (j.top.length) {
      const t = el('table', {});
      t.append(el('thead', {}, el('tr', {}, ...['id', 'kernel', 'time', 'FLOPs', 'AI', 'FLOP/s'].map((h) => el('th', {}, h)))));
      const b = el('tbody', {});
      j.top.forEach((k, i) => {
        const f = (x) => 'top.' + i + '.' + x;
        b.append(el('tr', {}, el('td', {}, num(f('id'), k.id)), el('td', { class: 'name' }, num(f('name'), k.name, k.name)),
          el('td', {}, num(f('time_s'), k.time_s, si(k.time_s, 's'))), el('td', {}, num(f('flops.total'), k.flops.total, si(k.flops.total, ''))),
          el('td', {}, num(f('ai.dram'), k.ai.dram, plain(k.ai.dram))), el('td', {}, num(f('flops_per_s'), k.flops_per_s, si(k.flops_per_s, 'FLOP/s')))));
      });
      t.append(b);
      $('prof-top').append(el('h3', {}, 'Longest kernels'), el('div', { class: 'scroll' }, t));
    }
  }

  function setupDrop() {
    const drop = $('drop');
    const take = (files) => { if (files && files[0]) reduceFile(files[0]); };
    drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', (e) => {
      e.preventDefault();
      drop.classList.remove('over');
      const f = e.dataTransfer.files[0];
      if (f && /\.json$/i.test(f.name)) f.text().then(checkAnswers);
      else take(e.dataTransfer.files);
    });
    $('csv-file').addEventListener('change', (e) => take(e.target.files));
  }

  /* ---- answer files: the library's checker -------------------------------
     roofline.checker(text, outElement) grades an answer file; it is the
     library's (page_check) when the module has the checker part. */
  function checkAnswers(text) {
    const out = $('answer-result');
    out.textContent = '';
    if (typeof window.roofline.checker === 'function') {
      window.roofline.checker(text, out);
      return;
    }
    out.append(el('p', { class: 'hint' }, 'This build of the page has no checker; rfl-check does it on the command line.'));
  }
  /* the library's checker (rfl-check in the page): each value's verdict,
     the expected value and, for a wrong one, the likely reason */
  function checkWithLibrary(text, out) {
    const b = enc.encode(text);
    if (b.length > E.page_in_size()) { out.append(el('p', { class: 'error' }, 'An answer file is at most 1 MiB.')); return; }
    bytes().set(b, E.page_in());
    const j = answer(E.page_check(b.length));
    if (j.error) {
      out.append(el('p', { class: 'error' }, 'Cannot read the answer file' + (j.line ? ' at line ' + j.line + ', column ' + j.col : '') + ': ',
                    j.field ? j.field + ': ' : '', j.error));
      document.body.dataset.check = 'error';
      return;
    }
    out.append(el('p', {}, 'Score ', num('score', j.score), ' of ', num('max_score', j.max_score),
                  profile && !profile.error ? '' : ' (drop your profile above first to have the measured values checked)'));
    const t = el('table', { class: 'check' });
    t.append(el('thead', {}, el('tr', {}, ...['value', 'verdict', 'yours', 'expected', 'ratio', 'why'].map((h) => el('th', {}, h)))));
    const body = el('tbody', {});
    j.items.forEach((it, i) => {
      const f = (k) => 'items.' + i + '.' + k;
      /* each value with its unit, by the field's name (the CLI's units) */
      const unit = /flops_per_s$/.test(it.field) ? 'FLOP/s' : /bytes_per_s$/.test(it.field) ? 'B/s'
        : /(^|[._])(ai|ridge[a-z_]*|ratio[a-z_]*)$/.test(it.field) ? null : /_s$/.test(it.field) ? 's'
        : /flops$/.test(it.field) ? 'FLOP' : /bytes$/.test(it.field) ? 'B' : null;
      const show = (v) => (typeof v === 'number' ? (unit ? si(v, unit, 4) : plain(v)) : v === null ? '-' : String(v));
      const plain = (v) => (typeof v === 'number' ? cstr(E.page_fmt(), E.page_fmt_num(v, 4)) : '-');
      const why = it.diagnosis && (it.message || '').startsWith(it.diagnosis) ? it.message.slice(it.diagnosis.length).replace(/^[:\s]+/, '') : it.message || '';
      body.append(el('tr', { class: 'v-' + it.verdict },
        el('td', { class: 'name' }, num(f('field'), it.field, it.field)), el('td', {}, num(f('verdict'), it.verdict, it.verdict)),
        el('td', {}, num(f('got'), it.got, show(it.got))), el('td', {}, num(f('expected'), it.expected, show(it.expected))),
        el('td', {}, num(f('ratio'), it.ratio, plain(it.ratio))),
        el('td', { class: 'name' }, it.diagnosis ? el('code', {}, num(f('diagnosis'), it.diagnosis, it.diagnosis)) : '', it.diagnosis ? ' ' : '',
           el('span', { 'data-field': f('message') }, why))));
    });
    t.append(body);
    out.append(el('div', { class: 'scroll' }, t));
    document.body.dataset.check = 'done';
  }
  function setupAnswers() {
    if (E.page_check) window.roofline.checker = checkWithLibrary;
    $('answer-check').addEventListener('click', () => checkAnswers($('answer-text').value));
    $('answer-text').addEventListener('drop', (e) => {
      const f = e.dataTransfer.files[0];
      if (!f) return;
      e.preventDefault();
      f.text().then((t) => { $('answer-text').value = t; checkAnswers(t); });
    });
  }

  /* ---- start -------------------------------------------------------------- */
  async function start() {
    const t0 = performance.now();
    const raw = atob(WASM_BASE64);
    const code = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) code[i] = raw.charCodeAt(i);
    E = (await WebAssembly.instantiate(code, {})).instance.exports;
    lists = answer(E.page_list());
    $('version').textContent = lists.version;
    readURL();
    setupControls();
    setupDrop();
    setupAnswers();
    update();
    window.roofline.startMs = performance.now() - t0; /* module to first estimate drawn */
    window.roofline.readyMs = performance.now(); /* since the navigation began */
  }
  /* for tests, and for another checker than the library's */
  window.roofline = { reduceFile, checkAnswers, checker: null, state, get estimate() { return last; }, get profile() { return profile; } };
  start().catch((e) => {
    const err = $('error');
    err.hidden = false;
    err.textContent = 'The page could not start: ' + e.message;
    document.body.dataset.ready = 'error';
  });
})();
