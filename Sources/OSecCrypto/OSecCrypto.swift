// Placeholder: implemented in OSecCrypto.
