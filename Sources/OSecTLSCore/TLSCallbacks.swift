internal import CLibSSL

/// The C callbacks libssl calls during a handshake step; each finds the ``TLSEngine`` attached to the SSL
/// (SSL_set_ex_data slot 0) and forwards to it. They run synchronously inside SSL_do_handshake / SSL_read, on
/// the thread driving the engine.
enum TLSCallbacks {
    /// SSL_CTX_set_cert_verify_callback: replaces X509_verify_cert; the engine's handler decides.
    static let verify: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { store, _ in
        guard let store else { return 0 }
        guard let pointer = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
            let engine = TLSEngine.engine(of: OpaquePointer(pointer))
        else {
            X509_STORE_CTX_set_error(store, X509_V_ERR_UNSPECIFIED)
            return 0
        }
        return engine.verifyPeer(store)
    }

    /// SSL_set_cert_cb on clients: called when the server's CertificateRequest is processed.
    static let certificateRequest: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { ssl, _ in
        guard let ssl, let engine = TLSEngine.engine(of: ssl) else { return 0 }
        return engine.onCertificateRequest()
    }

    /// SSL_CTX_set_client_hello_cb on servers.
    static let clientHello:
        @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutableRawPointer?) -> Int32 = {
            ssl, _, _ in
            guard let ssl, let engine = TLSEngine.engine(of: ssl) else { return SSL_CLIENT_HELLO_SUCCESS }
            return engine.onClientHello()
        }

    /// SSL_CTX_set_alpn_select_cb on servers.
    static let selectALPN:
        @convention(c) (
            OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
            UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
        ) -> Int32 = { ssl, out, outLength, input, inputLength, _ in
            guard let ssl, let out, let outLength, let input, let engine = TLSEngine.engine(of: ssl) else {
                return SSL_TLSEXT_ERR_NOACK
            }
            return engine.selectApplicationProtocol(out, outLength, input, Int(inputLength))
        }

    /// SSL_CTX_sess_set_new_cb on clients: a session (or TLS 1.3 ticket) arrived.
    static let newSession: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32 = { ssl, session in
        guard let ssl, let session, let engine = TLSEngine.engine(of: ssl) else { return 0 }
        return engine.storeNewSession(session)
    }
}
