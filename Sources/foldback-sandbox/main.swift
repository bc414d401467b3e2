// foldback-sandbox: hosts one of a preset's LV2 plugins for Foldback, in a process of its own (Foldback starts it). Realtime serve loop.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackSandbox
import Glibc

exit(SandboxServer.run(arguments: Array(CommandLine.arguments.dropFirst())))
