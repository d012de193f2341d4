// Baseline measurements of OpenSSL 3 itself, for `opensecurity-bench` only.
//
// Each function runs one operation repeatedly for about `seconds` seconds with OpenSSL's own API, the way a
// careful C programmer would (EVP, fetched algorithms, a fresh EVP_PKEY_CTX per operation as OpenSSL requires
// for thread safety), and returns operations per second (or < 0 on failure). Keys are generated inside; no
// pointers cross into Swift.
#ifndef OPENSEC_COPENSSL_BASELINE_H
#define OPENSEC_COPENSSL_BASELINE_H

double osec_baseline_rsa2048_sign_sha256(double seconds);
double osec_baseline_rsa2048_verify_sha256(double seconds);
double osec_baseline_rsa2048_oaep_decrypt_sha256(double seconds);
double osec_baseline_p256_sign_sha256(double seconds);
double osec_baseline_p256_verify_sha256(double seconds);
/// Bytes per second of AES-256-GCM sealing a 1 MiB buffer.
double osec_baseline_aes256gcm_1mib(double seconds);
/// Bytes per second of SHA-256 over a 1 MiB buffer.
double osec_baseline_sha256_1mib(double seconds);
/// RSA-2048 private key from PKCS#1 DER: generic decoder (d2i_AutoPrivateKey).
double osec_baseline_rsa2048_private_decode_generic(double seconds);
/// RSA-2048 private key from PKCS#1 DER: typed entry point (d2i_RSAPrivateKey + EVP_PKEY_assign).
double osec_baseline_rsa2048_private_decode_typed(double seconds);
/// P-256 public key from SubjectPublicKeyInfo DER: generic decoder (d2i_PUBKEY).
double osec_baseline_p256_public_decode_generic(double seconds);
/// P-256 public key from an X9.63 point: EVP_PKEY_fromdata.
double osec_baseline_p256_public_decode_fromdata(double seconds);

#include "COpenSSLKeychainBaseline.h"
#include "COpenSSLPKCS12Baseline.h"
#include "COpenSSLX509Baseline.h"
#include "COpenSSLTrustBaseline.h"
#include "COpenSSLCommonCryptoBaseline.h"
#include "COpenSSLSecKeyBaseline.h"
#include "COpenSSLTLSBaseline.h"
#include "COpenSSLSyncBaseline.h"
#include "COpenSSLKitBaseline.h"

#endif
