// Foldback web surface: the parameter tree as the server sends it once (and when it changes), and each state's values laid back onto it, so the page works with whole nodes (docs/web.md). Served after app.js.
// SPDX-License-Identifier: GPL-3.0-or-later
"use strict";
window.foldbackTree = (() => {
  let tree = null;

  // A `tree` message: kept until the next one.
  function take(message) { tree = message; }

  // A `state` message carrying `values` (one per tree node) gets its `parameters` and `outputs` back from the tree;
  // false while the page holds no tree of that version (the server sends it again within 10 s).
  function expand(state) {
    if (!state.values) return true;
    if (!tree || tree.version !== state.tree || tree.parameters.length !== state.values.length) return false;
    state.parameters = tree.parameters.map((p, i) => Object.assign({}, p, { value: state.values[i] }));
    state.outputs = tree.outputs || [];
    return true;
  }

  return { take, expand };
})();
