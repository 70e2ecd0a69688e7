/* replay.c - runs a libFuzzer harness without libFuzzer: every file named on
   the command line (directories: every file in them, not recursive) is fed
   once to LLVMFuzzerTestOneInput. The normal test suite builds each harness
   with this main (gcc, optionally with sanitizers) and replays the seed
   corpus and every past finding in tests/regress/, so a finding stays a
   test. Prints "N passed, 0 failed" (rfl_test.h's summary line); a harness
   that finds a bug aborts instead. Test code only: uses libc freely. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
	FILE *f = fopen(path, "rb");
	long n;
	unsigned char *buf;
	if (!f) { printf("FAIL cannot open %s\n", path); return 0; }
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	/* an exact-size heap copy, so ASan sees any read past the input */
	buf = (unsigned char *)malloc(n > 0 ? (size_t)n : 1u);
	if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		printf("FAIL cannot read %s\n", path);
		fclose(f);
		free(buf);
		return 0;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 1;
}

int main(int argc, char **argv) {
	int i, pass = 0, fail = 0;
	for (i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) { printf("FAIL no such file %s\n", argv[i]); fail++; continue; }
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;
			if (!d) { fail++; continue; }
			while ((e = readdir(d)) != NULL) {
				char p[4096];
				struct stat es;
				if (e->d_name[0] == '.') continue;
				snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
				if (stat(p, &es) != 0 || !S_ISREG(es.st_mode)) continue;
				if (replay_file(p)) pass++; else fail++;
			}
			closedir(d);
		} else if (replay_file(argv[i])) pass++;
		else fail++;
	}
	printf("%d passed, %d failed\n", pass, fail);
	return fail != 0;
}
