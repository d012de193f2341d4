// The envelope baselines (COpenSSLKitBaseline.h): keys cross as PEM text.
internal import COpenSSLBaseline

package func osec_baseline_envelope_seal(_ publicPEM: String, _ length: Int32, _ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_envelope_seal(publicPEM, length, seconds)
}

package func osec_baseline_envelope_open(_ privatePEM: String, _ length: Int32, _ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_envelope_open(privatePEM, length, seconds)
}
