/* test_error.c - the one error type (rfl_error) and its formatter.
   1. rfl_error_format against lines written out by hand: every part
	  present, each part missing in turn, the code's name for an empty
	  message, the place alone for code RFL_OK, a buffer too small (cut,
	  NUL-terminated, the whole length returned) and count mode.
   2. Each parser fills its own error for one bad input: code, line,
	  column, byte offset, where and message, each value derived by hand
	  from the input's bytes in the comment beside it (the net builder,
	  the JSON reader, the Hugging Face config and machine-file readers,
	  the ONNX reader and its graph builder, the reducer). */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"

/* Texts that RFL_NO_ERROR_STRINGS removes: result names and the readers'
   RFL__MSG messages. */
#ifdef RFL_NO_ERROR_STRINGS
#define MSG(s) ""
#else
#define MSG(s) s
#endif

static char line[400];

/* An error with every field given ("" / 0 for the absent ones). */
static rfl_error make(rfl_result code, uint64_t l, uint64_t c, const char *where, const char *msg) {
	rfl_error e;
	memset(&e, 0, sizeof e);
	e.code = code, e.index = -1, e.line = l, e.col = c;
	snprintf(e.where, sizeof e.where, "%s", where);
	snprintf(e.msg, sizeof e.msg, "%s", msg);
	return e;
}

static void fmt_is(const rfl_error *e, const char *file, const char *want) {
	size_t n = rfl_error_format(e, file, line, sizeof line);
	RT_STR(line, want);
	RT_EQ_U64(n, strlen(want));
}

static void test_format(void) {
	rfl_error e = make(RFL_ERR_NUMBER, 3, 7, "peak_flops.fp32", "negative");
	char small[10];
	fmt_is(&e, "m.json", "m.json:3:7: peak_flops.fp32: negative");
	fmt_is(&e, 0, "3:7: peak_flops.fp32: negative");         /* no file */
	fmt_is(&e, "", "3:7: peak_flops.fp32: negative");        /* "" is no file */
	e = make(RFL_ERR_SYNTAX, 12, 5, "", "expected ':'");
	fmt_is(&e, "c.json", "c.json:12:5: expected ':'");       /* no where */
	e = make(RFL_ERR_SYNTAX, 12, 0, "", "expected ':'");
	fmt_is(&e, "c.json", "c.json:12: expected ':'");         /* no column */
	e = make(RFL_ERR_SYNTAX, 0, 5, "", "expected ':'");
	fmt_is(&e, "c.json", "c.json: expected ':'");            /* a column alone is no place */
	e = make(RFL_ERR_FORMAT, 0, 0, "tensor 'w'", "negative dim");
	fmt_is(&e, "m.onnx", "m.onnx: tensor 'w': negative dim"); /* no line */
	e = make(RFL_ERR_SHAPE, 0, 0, "layer 2 (add)", "");
	fmt_is(&e, "resnet18 at 8x8", "resnet18 at 8x8: layer 2 (add): " MSG("invalid shape")); /* code's name */
	fmt_is(&e, 0, "layer 2 (add): " MSG("invalid shape"));
	e = make(RFL_ERR_EMPTY, 0, 0, "", "");
	fmt_is(&e, 0, MSG("empty input"));
	e = make(RFL_OK, 4, 2, "", "");
	fmt_is(&e, "f.csv", "f.csv:4:2: ");                      /* the place alone */
	e = make(RFL_OK, 0, 0, "", "");
	fmt_is(&e, 0, "");
	/* cut to fit: 9 characters and the NUL; the whole length returned:
	   "m.json:" 7 + "3:7:" 4 + " " 1 + "peak_flops.fp32" 15 + ": " 2 +
	   "negative" 8 = 37 */
	e = make(RFL_ERR_NUMBER, 3, 7, "peak_flops.fp32", "negative");
	RT_EQ_U64(rfl_error_format(&e, "m.json", small, sizeof small), 37);
	RT_STR(small, "m.json:3:");
	RT_EQ_U64(rfl_error_format(&e, "m.json", small, 1), 37);
	RT_STR(small, "");
	RT_EQ_U64(rfl_error_format(&e, "m.json", 0, 0), 37); /* count mode */
	RT_EQ_U64(rfl_error_format(0, "m.json", small, sizeof small), 0);
	RT_STR(small, "");
}

/* The net builder: the layer's index and "layer N (op in scope)". */
static void test_net(void) {
	static rfl_layer rec[16];
	static char names[256];
	rfl_net net;
	rfl_tensor x;
	rfl_net_init(&net, rec, 16, names, sizeof names);
	RT_EQ_INT(net.err.code, RFL_OK);
	RT_EQ_INT(net.err.index, -1);
	x = rfl_input(&net, 3, 4, 4);                 /* layer 0 */
	rfl_scope_push(&net, "block");
	x = rfl_conv(&net, x, 8, 3, 1, 1);            /* layer 1 */
	x = rfl_conv(&net, x, 8, 7, 1, 0);            /* a 7x7 kernel on 4x4: layer 2 fails */
	RT_EQ_INT(x, RFL_NO_TENSOR);
	RT_EQ_INT(net.err.code, RFL_ERR_SHAPE);
	RT_EQ_INT(net.err.index, 2);
	RT_STR(net.err.where, "layer 2 (conv2d in block)");
	RT_EQ_U64(net.err.line, 0); /* a builder has no text position */
	RT_STR(net.err.msg, "");
	fmt_is(&net.err, "m", "m: layer 2 (conv2d in block): " MSG("invalid shape"));
}

/* The JSON reader: the place of a syntax error; a short token array. */
static void test_json(void) {
	/* line 1 "{\n" (2 bytes), line 2 "  \"a\": 1,\n" (10), line 3 starts
	   at byte 12: "  \"b\" 2": the '2' where ':' belongs is column 7,
	   byte 12 + 6 = 18 */
	static const char doc[] = "{\n  \"a\": 1,\n  \"b\" 2\n}";
	rfl_json_tok t[8];
	rfl_json_doc d;
	RT_EQ_INT(rfl_json_parse(&d, doc, sizeof doc - 1, t, 8), RFL_ERR_SYNTAX);
	RT_EQ_INT(d.err.code, RFL_ERR_SYNTAX);
	RT_EQ_U64(d.err.line, 3);
	RT_EQ_U64(d.err.col, 7);
	RT_EQ_U64(d.err.offset, 18);
	RT_STR(d.err.where, "");
	RT_STR(d.err.msg, "expected ':'");
	fmt_is(&d.err, "x.json", "x.json:3:7: expected ':'");
	/* [1,2,3]: the array and three numbers = 4 tokens; 2 given */
	RT_EQ_INT(rfl_json_parse(&d, "[1,2,3]", 7, t, 2), RFL_ERR_BUFFER);
	RT_EQ_INT(d.n, 2); /* the ones filled */
	RT_EQ_U64(d.err.need, 4);
	RT_STR(d.err.where, "toks");
	/* malformed and too large: the syntax error wins */
	RT_EQ_INT(rfl_json_parse(&d, "[1,2,3,]", 8, t, 2), RFL_ERR_SYNTAX);
	RT_EQ_U64(d.err.col, 8);
}

#ifndef RFL_NO_LLM
/* The Hugging Face reader: the field, and its value's place. */
static void test_hf(void) {
	/* line 1 "{\n" (2 bytes); line 2 " \"model_type\": \"bert\"": the
	   value's opening quote is column 16 (1 space, 12 for the key, ':'
	   and a space), byte 2 + 15 = 17 */
	static const char doc[] = "{\n \"model_type\": \"bert\"\n}";
	static rfl_json_tok t[16];
	rfl_llm_config c;
	rfl_error e;
	RT_EQ_INT(rfl_llm_config_parse(doc, sizeof doc - 1, t, 16, &c, &e), RFL_ERR_UNSUPPORTED);
	RT_EQ_INT(e.code, RFL_ERR_UNSUPPORTED);
	RT_STR(e.where, "model_type");
	RT_EQ_U64(e.line, 2);
	RT_EQ_U64(e.col, 16);
	RT_EQ_U64(e.offset, 17);
	RT_STR(e.msg, MSG("unknown model_type (known: gpt2 llama mistral mixtral qwen2 qwen3 qwen3_moe gemma2 gemma3_text phi3 olmo2 deepseek_v2 deepseek_v3 gpt_oss gpt_neox)"));
	/* the tokens: the object, 1 key and 1 value = 3; 2 given */
	RT_EQ_INT(rfl_llm_config_parse(doc, sizeof doc - 1, t, 2, &c, &e), RFL_ERR_BUFFER);
	RT_EQ_U64(e.need, 3);
	RT_STR(e.where, "toks");
}
#endif

#ifndef RFL_NO_MACHINE_FILE
/* The machine-file reader: the field path and its value's place. */
static void test_machine_file(void) {
	/* line 1 is 39 characters and its newline (40 bytes); on line 2 the
	   value -1 of peak_flops.fp32 starts at column 25 (" \"peak_flops\":
	   {\"fp32\": " is 24 characters): byte 40 + 24 = 64 */
	static const char doc[] = "{\"name\": \"x\", \"id\": \"x\", \"kind\": \"gpu\",\n"
							  " \"peak_flops\": {\"fp32\": -1}, \"mem_bw\": {\"dram\": 1}}";
	static rfl_json_tok t[64];
	static char strs[256];
	rfl_machine_file mf;
	rfl_error e;
	RT_EQ_INT(rfl_machine_file_parse(doc, sizeof doc - 1, t, 64, strs, sizeof strs, &mf, &e),
			  RFL_ERR_NUMBER);
	RT_EQ_INT(e.code, RFL_ERR_NUMBER);
	RT_STR(e.where, "peak_flops.fp32");
	RT_EQ_U64(e.line, 2);
	RT_EQ_U64(e.col, 25);
	RT_EQ_U64(e.offset, 64);
	RT_STR(e.msg, "negative");
	fmt_is(&e, "m.json", "m.json:2:25: peak_flops.fp32: negative");
}
#endif

#if !defined(RFL_NO_ONNX) && !defined(RFL_NO_STDIO)
/* The ONNX reader (a wire error's byte; a graph error's tensor) and the
   graph builder (the node, by index and name). Fixtures: tests/onnx/bad/
   (tests/onnx/make_bad.py). */
static unsigned char arena[1 << 20];
static void test_onnx(void) {
	static rfl_onnx_state st;
	static rfl_onnx_graph g;
	static rfl_onnx_info info;
	static rfl_layer rec[64];
	rfl_net net;
	/* truncated.onnx is a model cut after its 7805th byte: the stream
	   ends inside a message there */
	RT_EQ_INT(rfl_onnx_read_file(&st, "tests/onnx/bad/truncated.onnx", arena, sizeof arena, &g),
			  RFL_ERR_TRUNCATED);
	RT_EQ_INT(st.err.code, RFL_ERR_TRUNCATED);
	RT_EQ_U64(st.err.offset, 7805);
	RT_EQ_U64(st.err.line, 0); /* binary: the message names the byte */
	RT_CHECK(strncmp(st.err.msg, "byte 7805: ", 11) == 0);
	/* negative-dim.onnx: input x has a dim of -1 */
	RT_EQ_INT(rfl_onnx_read_file(&st, "tests/onnx/bad/negative-dim.onnx", arena, sizeof arena, &g),
			  RFL_ERR_FORMAT);
	RT_STR(st.err.where, "tensor 'x'");
	RT_STR(st.err.msg, "negative dim");
	/* unknown-op.onnx: nodes conv_1, fancy_1 (FancyNorm, no rule, no
	   shape for its output), relu_1: node 1 fails */
	RT_EQ_INT(rfl_onnx_read_file(&st, "tests/onnx/bad/unknown-op.onnx", arena, sizeof arena, &g),
			  RFL_OK);
	rfl_net_init(&net, rec, 64, 0, 0);
	RT_EQ_INT(rfl_onnx_build(&g, 0, &net, &info), RFL_ERR_UNSUPPORTED);
	RT_EQ_INT(info.err.code, RFL_ERR_UNSUPPORTED);
	RT_EQ_INT(info.err.index, 1);
	RT_STR(info.err.where, "node 'fancy_1' (FancyNorm)");
	RT_STR(info.err.msg, "no shape rule for this op and no value_info shape for output f");
	RT_EQ_INT(net.err.code, RFL_ERR_UNSUPPORTED); /* the net keeps the node's error */
	RT_STR(net.err.where, "node 'fancy_1' (FancyNorm)");
}
#endif

#ifndef RFL_NO_REDUCE
/* The reducer: line, column and byte of the bad field; no where (the
   message quotes the field). */
static void test_reduce(void) {
	/* an ncu raw page: header (line 1, 48 characters and the newline),
	   units (line 2, 13 and the newline): line 3 starts at byte 63; its
	   time field "x1" opens at column 15 ("1" 1-3, "k" 5-7, "9.0" 9-13,
	   commas between): byte 63 + 14 = 77 */
	static const char csv[] =
		"\"ID\",\"Kernel Name\",\"CC\",\"gpu__time_duration.sum\"\n"
		"\"\",\"\",\"\",\"ns\"\n"
		"\"1\",\"k\",\"9.0\",\"x1\"\n";
	static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
	static rfl_reduce_state st;
	rfl_reduce_result res;
	rfl_result r;
	rfl_reduce_init(&st, 0, scratch, sizeof scratch);
	r = rfl_reduce_push(&st, csv, sizeof csv - 1);
	if (r == RFL_OK) r = rfl_reduce_finish(&st, &res);
	RT_EQ_INT(r, RFL_ERR_NUMBER);
	RT_EQ_INT(st.err.code, RFL_ERR_NUMBER);
	RT_EQ_U64(st.err.line, 3);
	RT_EQ_U64(st.err.col, 15);
	RT_EQ_U64(st.err.offset, 77);
	RT_STR(st.err.where, "");
	RT_CHECK(strstr(st.err.msg, "'x1'") != 0);
}
#endif

int main(void) {
	test_format();
	test_net();
	test_json();
#ifndef RFL_NO_LLM
	test_hf();
#endif
#ifndef RFL_NO_MACHINE_FILE
	test_machine_file();
#endif
#if !defined(RFL_NO_ONNX) && !defined(RFL_NO_STDIO)
	test_onnx();
#endif
#ifndef RFL_NO_REDUCE
	test_reduce();
#endif
	return rt_done();
}
