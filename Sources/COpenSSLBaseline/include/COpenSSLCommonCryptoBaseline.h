// Baselines for the CommonCrypto benchmarks (opensecurity-bench only): the same operations as CC_SHA256,
// CCHmac and CCCrypt, written with OpenSSL's EVP API the way a careful C programmer would (algorithms fetched
// once, one-shot calls per message). Each runs for about `seconds` seconds and returns operations per second
// (or < 0 on failure). No pointer crosses from Swift.
#ifndef OPENSEC_COPENSSL_COMMONCRYPTO_BASELINE_H
#define OPENSEC_COPENSSL_COMMONCRYPTO_BASELINE_H

/// SHA-256 of a `length`-byte message (EVP_Digest with a fetched EVP_MD).
double osec_baseline_cc_sha256(int length, double seconds);
/// HMAC-SHA256 of a `length`-byte message under a 32-byte key (EVP_MAC: a template context with the digest
/// set, duplicated and keyed per message — the cheapest EVP_MAC one-shot).
double osec_baseline_cc_hmac_sha256(int length, double seconds);
/// AES-CBC with PKCS#7 padding of a `length`-byte message under a `key_length`-byte key
/// (EVP_CIPHER_CTX_new, EVP_EncryptInit_ex2, EVP_EncryptUpdate, EVP_EncryptFinal_ex per message).
double osec_baseline_cc_aes_cbc(int key_length, int length, double seconds);

#endif
