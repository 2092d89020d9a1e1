#ifndef CSODIUM_SHIM_H
#define CSODIUM_SHIM_H

#include <sodium.h>

/// `crypto_pwhash_STRBYTES`, `…_OPSLIMIT_INTERACTIVE` and `…_MEMLIMIT_INTERACTIVE` are macros
/// Swift cannot import: the same values through functions libsodium exports.
static inline size_t csodium_pwhash_strbytes(void) { return crypto_pwhash_strbytes(); }
static inline unsigned long long csodium_pwhash_opslimit(void) { return crypto_pwhash_opslimit_interactive(); }
static inline size_t csodium_pwhash_memlimit(void) { return crypto_pwhash_memlimit_interactive(); }

#endif
