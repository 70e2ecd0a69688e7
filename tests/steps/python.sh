# The Python module (issue 37): python3 -m pytest python/ against the
# tools' --json. It needs a python3 that has pytest: the first of
# $RFL_PYTHON, python3 and /usr/bin/python3 (Debian's python3-pytest,
# from make deps) that imports it; where none does, or python3 is
# absent, the step is skipped, saying so.
py_pytest=
for p in ${RFL_PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$p" > /dev/null 2>&1 && "$p" -c 'import pytest' > /dev/null 2>&1; then py_pytest=$p; break; fi
done
if ! command -v python3 > /dev/null 2>&1 && [ -z "$py_pytest" ]; then
  echo "python: python3 not found: the Python module's tests skipped"
elif [ -z "$py_pytest" ]; then
  echo "python: no python3 with pytest (apt-get install python3-pytest, or make deps): the Python module's tests skipped"
else
  for t in build/libroofline.so build/rfl-estimate build/rfl-hw build/rfl-reduce build/rfl-check; do
    [ -e "$t" ] || step "build $t" ${MAKE:-make} -s "$t"
  done
  step "python: $py_pytest -m pytest python/" "$py_pytest" -m pytest -q python/
fi
