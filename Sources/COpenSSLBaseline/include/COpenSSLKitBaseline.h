// Baselines for the OpenSecurityKit envelope benchmarks (opensecurity-bench only): the floor of sealing and opening
// a modern envelope, i.e. the same RSA and AES-GCM operations done directly with OpenSSL's EVP API: a random 32-byte
// key and 12-byte nonce (RAND_bytes), RSA-OAEP-SHA256 of the key (a fresh EVP_PKEY_CTX per message, as OpenSSL
// requires for thread safety), AES-256-GCM of the message with a 16-byte associated data into a buffer allocated
// per message (EVP_CIPHER fetched once, a fresh EVP_CIPHER_CTX per message). Keys cross as PEM text; each returns
// operations per second (or < 0 on failure). No pointer crosses from Swift.
#ifndef OPENSEC_COPENSSL_KIT_BASELINE_H
#define OPENSEC_COPENSSL_KIT_BASELINE_H

/// Seals `length`-byte messages for the RSA public key `public_pem` (SubjectPublicKeyInfo PEM).
double osec_baseline_envelope_seal(const char *public_pem, int length, double seconds);
/// Opens a `length`-byte message sealed for the RSA private key `private_pem` (PKCS#8 PEM).
double osec_baseline_envelope_open(const char *private_pem, int length, double seconds);

#endif
