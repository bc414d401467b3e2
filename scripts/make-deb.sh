#!/usr/bin/env bash
# `make deb`: stages `make install PREFIX=/usr` with the Debian files (copyright, changelog, the systemd unit), strips
# the binary, computes Depends with dpkg-shlibdeps from the libraries it links (as debhelper's dh_shlibdeps would),
# writes the control file with dpkg-gencontrol, builds foldback_VERSION_ARCH.deb with dpkg-deb and runs lintian on it.
# The package lands in .build-deb/ (its path is printed last); run after `make static-build man` (the Makefile does).
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
work=.build-deb/deb
stage=$work/foldback
rm -rf "$work"
mkdir -p "$stage"
make --no-print-directory -o man install DESTDIR="$PWD/$stage" PREFIX=/usr >/dev/null

doc=$stage/usr/share/doc/foldback
install -m 644 debian/copyright "$doc/copyright"
gzip -9n <debian/changelog >"$doc/changelog.Debian.gz"
install -D -m 644 "debian/foldback@.service" "$stage/lib/systemd/system/foldback@.service"
gzip -9n "$stage"/usr/share/man/man1/*.1
# Debian compresses documentation over 4 kB (as dh_compress); the README links stay valid through the .gz names
# only for a reader, so the short files are kept plain.
find "$doc" -name '*.md' -size +4k -exec gzip -9n {} +
# As dh_strip: no symbol tables or build notes in the installed binary.
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$stage/usr/bin/foldback" "$stage/usr/lib/foldback/foldback-sandbox"

# Depends from the libraries the binaries link (foldback, and the plugin sandbox it starts from /usr/lib/foldback) (dpkg-shlibdeps reads debian/control for the package's name).
dpkg-shlibdeps -T"$work/substvars" -e "$stage/usr/bin/foldback" -e "$stage/usr/lib/foldback/foldback-sandbox"
mkdir -p "$stage/DEBIAN"
dpkg-gencontrol -pfoldback -cdebian/control -ldebian/changelog -T"$work/substvars" -f"$work/files" -P"$stage"
# Policy: directories 755, files 644 (the binary 755), owned by root (dpkg-deb --root-owner-group).
find "$stage" -type d -exec chmod 755 {} +
find "$stage/usr/share" "$stage/lib" -type f -exec chmod 644 {} +
version=$(dpkg-parsechangelog -ldebian/changelog -SVersion)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
package=.build-deb/foldback_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" >/dev/null
echo "make deb: $package ($(du -k "$package" | cut -f1) kB; installed $(grep '^Installed-Size' "$stage/DEBIAN/control" | cut -d' ' -f2) kB)"
grep '^Depends\|^Recommends' "$stage/DEBIAN/control"
# lintian: no error may remain (warnings it keeps are listed in docs/stage-box.md, "The package").
echo "lintian:"
lintian --fail-on error --no-tag-display-limit "$package" && echo "lintian: no error"
