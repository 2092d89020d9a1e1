#!/usr/bin/env bash
# Builds Debian bookworm's libmicrohttpd 0.9.75 (the same source as libmicrohttpd-dev) with the patches
# beside this script, as a static library with its header and pkg-config file under PREFIX.
#
# Why: 0.9.75 sends its own 400/413 for a bad Content-Length with the header block twice on one
# connection (0001-error-response-once.patch says where). The refusal happens inside libmicrohttpd's
# header parsing, before any callback of the server's runs, so no code outside the library can fix it.
# And a suspended connection (an idle viewer's event stream) kept every page of its memory pool that
# libmicrohttpd had touched, about 18 KB per viewer (0002-suspended-connection-gives-back-pages.patch).
# The Makefile points PKG_CONFIG_PATH here, so `swift build` links this build instead of Debian's.
#
# Debian's own patch (PostProcessor DoS) is about the post processor, which this build leaves out
# (--disable-postprocessor): the server parses forms itself. HTTPS is left out too: TLS ends at a proxy.
#
#     Vendor/libmicrohttpd/build.sh PREFIX
set -euo pipefail

prefix=${1:?usage: build.sh PREFIX}
here=$(cd "$(dirname "$0")" && pwd)
version=0.9.75
tarball=libmicrohttpd_${version}.orig.tar.xz
# From Debian's libmicrohttpd_0.9.75-6.dsc (Checksums-Sha256).
sha256=796e7e217a4802679fcac667a4e98501c53185dcf50ca0583870e84192620131
urls=(
    "http://deb.debian.org/debian/pool/main/libm/libmicrohttpd/$tarball"
    "http://archive.debian.org/debian/pool/main/libm/libmicrohttpd/$tarball"
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Through apt instead, where only apt reaches Debian (a proxy in apt.conf): a deb-src list of our own,
# with its own lists and cache, leaves the machine's apt configuration alone.
fetch_with_apt() {
    local apt=$work/apt
    mkdir -p "$apt/lists/partial" "$apt/sources" "$apt/cache"
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main" \
        > "$apt/sources/libmicrohttpd.list"
    local options=(-qq -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/sources"
                   -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User="$(id -un)")
    apt-get "${options[@]}" update
    (cd "$apt" && apt-get "${options[@]}" source --download-only "libmicrohttpd=$version-6")
    mv "$apt/$tarball" "$work/$tarball"
}

fetched=false
for url in "${urls[@]}"; do
    if curl -fsSL --retry 2 --connect-timeout 20 -m 120 -o "$work/$tarball" "$url"; then fetched=true; break; fi
done
$fetched || fetch_with_apt
echo "$sha256  $work/$tarball" | sha256sum -c --quiet -

tar -xJf "$work/$tarball" -C "$work"
source=$work/libmicrohttpd-$version
for patch in "$here"/*.patch; do
    patch -s -p1 -d "$source" < "$patch"
done

cd "$source"
# Debian's hardening flags for bookworm (dpkg-buildflags), as its own build of the library has them.
export CFLAGS="-g -O2 -fstack-protector-strong -Wformat -Werror=format-security" CPPFLAGS="-Wdate-time -D_FORTIFY_SOURCE=2"
./configure -q --prefix="$prefix" --disable-shared --enable-static --with-pic \
    --disable-https --disable-postprocessor --disable-dauth --disable-doc --disable-examples --disable-curl \
    > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
make -s -j"$(nproc)" -C src/microhttpd > "$work/make.log" 2>&1 || { tail -40 "$work/make.log"; exit 1; }
rm -rf "$prefix"
make -s -C src/microhttpd install > /dev/null
make -s -C src/include install > /dev/null
make -s install-pkgconfigDATA > /dev/null
# Under a name of its own: SwiftPM puts other packages' -L/usr/lib/x86_64-linux-gnu first, where -lmicrohttpd
# would find Debian's library (and SwiftPM keeps only -L and -l flags of a pkg-config file).
mv "$prefix/lib/libmicrohttpd.a" "$prefix/lib/libmicrohttpd-patched.a"
rm -f "$prefix/lib/libmicrohttpd.la"
sed -i 's|^Libs: .*|Libs: -L${libdir} -lmicrohttpd-patched -lpthread|' "$prefix/lib/pkgconfig/libmicrohttpd.pc"
echo "libmicrohttpd $version (patched) in $prefix"
