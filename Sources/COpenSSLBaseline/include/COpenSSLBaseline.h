#ifndef OPENSEC_COPENSSL_BASELINE_H
#define OPENSEC_COPENSSL_BASELINE_H
int osec_baseline_placeholder(void);
#endif
