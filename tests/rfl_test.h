/* rfl_test.h - the smallest test harness that does the job: checks count,
   failures print file:line and the values, the run ends with the line
   "N passed, N failed" that tests/run.sh adds up. Test code only. */
#ifndef RFL_TEST_H
#define RFL_TEST_H
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>

static int rt_pass_, rt_fail_;
#if defined(__GNUC__) || defined(__clang__)
#define RT_UNUSED_ __attribute__((unused)) /* helpers a test may not need */
#else
#define RT_UNUSED_
#endif

static int rt_report_(int ok, const char *what, const char *file, int line) {
	if (ok) rt_pass_++;
	else {
		rt_fail_++;
		printf("FAIL %s:%d: %s\n", file, line, what);
	}
	return ok;
}
#define RT_CHECK(c) rt_report_(!!(c), #c, __FILE__, __LINE__)
#define RT_EQ_U64(a, b)                                                        \
	do {                                                                       \
		unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
		if (!rt_report_(a_ == b_, #a " == " #b, __FILE__, __LINE__))           \
			printf("     got %llu, expected %llu\n", a_, b_);                  \
	} while (0)
#define RT_EQ_INT(a, b)                                                        \
	do {                                                                       \
		long long a_ = (long long)(a), b_ = (long long)(b);                    \
		if (!rt_report_(a_ == b_, #a " == " #b, __FILE__, __LINE__))           \
			printf("     got %lld, expected %lld\n", a_, b_);                  \
	} while (0)
/* relative tolerance (absolute near zero) */
#define RT_NEAR(a, b, rel)                                                     \
	do {                                                                       \
		double a_ = (double)(a), b_ = (double)(b);                             \
		double d_ = fabs(a_ - b_), s_ = fabs(b_) > 1e-300 ? fabs(b_) : 1.0;    \
		if (!rt_report_(d_ <= (rel) * s_, #a " ~= " #b, __FILE__, __LINE__))   \
			printf("     got %.17g, expected %.17g (rel tol %g)\n", a_, b_, (double)(rel)); \
	} while (0)
#define RT_STR(a, b)                                                           \
	do {                                                                       \
		const char *a_ = (a), *b_ = (b);                                       \
		if (!rt_report_(a_ && b_ && strcmp(a_, b_) == 0, #a " == " #b, __FILE__, __LINE__)) \
			printf("     got \"%s\", expected \"%s\"\n", a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
	} while (0)

/* The whole file in malloc'd memory (a test ends soon: never freed), with a
   NUL after its *len bytes (len may be NULL); NULL when it cannot be read. */
static RT_UNUSED_ char *rt_slurp(const char *path, size_t *len) {
	FILE *f = fopen(path, "rb");
	char *b;
	long n;
	if (!f) return 0;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = (char *)malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = 0; }
	if (b) b[n] = 0;
	fclose(f);
	if (len) *len = (size_t)n;
	return b;
}

/* rt_slurp of DIR/NAME, or the test ends (exit 1) saying which file. */
static RT_UNUSED_ char *rt_load(const char *dir, const char *name, size_t *len) {
	char path[256];
	char *b;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(b = rt_slurp(path, len))) { printf("cannot read %s\n", path); exit(1); }
	return b;
}

#ifdef ROOFLINE_H
/* A test's records under its cost desc as one value (the join and the
   report take a workload); one static value, so one at a time. */
static RT_UNUSED_ const rfl_workload *wl_of(const rfl_net *n, const rfl_cost_desc *c) {
	static rfl_workload w;
	if (!n) return 0;
	rfl_workload_of_net(&w, n, c);
	return &w;
}
#endif

static int rt_done(void) {
	printf("%d passed, %d failed\n", rt_pass_, rt_fail_);
	return rt_fail_ != 0;
}
#endif
