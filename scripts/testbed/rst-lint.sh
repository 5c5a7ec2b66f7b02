#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Documentation/*.rst and README.rst parse as reStructuredText: a malformed
# table or title renders as an error block, or not at all, in Sphinx.
# docutils knows neither Sphinx's directives (kernel-doc, toctree) nor its
# roles (:c:func:, :doc:, ...); those are registered as no-ops here, so every
# report left is a real markup error.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
"$TESTBED/deps.sh" -t rst-lint || exit 1
files=("$TOP"/Documentation/*.rst)
[ -f "$TOP/README.rst" ] && files+=("$TOP/README.rst")
read -r ok bad < <(/usr/bin/python3 - "${files[@]}" <<'PY'
import io
import sys
import docutils.core
from docutils.parsers.rst import Directive, directives, roles


class Ignored(Directive):
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = None

    def run(self):
        return []


class AnyOption(dict):
    def __getitem__(self, key):
        return directives.unchanged


Ignored.option_spec = AnyOption()
for name in ('kernel-doc', 'toctree'):
    directives.register_directive(name, Ignored)


def no_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [], []


for name in ('c:func', 'c:type', 'c:macro', 'c:member', 'doc', 'ref', 'file'):
    roles.register_local_role(name, no_role)

bad = 0
for path in sys.argv[1:]:
    err = io.StringIO()
    with open(path, encoding='utf-8') as f:
        docutils.core.publish_doctree(
            f.read(), source_path=path,
            settings_overrides={'warning_stream': err, 'report_level': 2,
                                'halt_level': 5})
    if err.getvalue():
        bad += 1
        sys.stderr.write(err.getvalue())
print(f'{len(sys.argv) - 1 - bad} {bad}')
PY
)
tb_result "${ok:-0}" "${bad:-1}" 0 "reStructuredText of Documentation/ parses"
