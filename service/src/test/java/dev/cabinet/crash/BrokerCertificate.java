package dev.cabinet.crash;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.cabinet.devservices.launcher.KafkaBroker;

/**
 * A test broker's TLS identity, made with the JDK's keytool: a self-signed EC certificate for 127.0.0.1 (its subject
 * alternative name, which clients check as they check a cluster's) in a PKCS12 keystore, and the certificate alone in
 * PEM, which the clients trust as a pod trusts the cluster CA's.
 */
final class BrokerCertificate {

    private static final String ALIAS = "broker";
    private static final String PASSWORD = "broker-test-keystore";

    private BrokerCertificate() {
    }

    /** A new keystore in {@code dir}. */
    static KafkaBroker.Secured keystore(Path dir) throws Exception {
        Files.createDirectories(dir);
        Path keystore = dir.resolve("broker.p12");
        Files.deleteIfExists(keystore);
        keytool("-genkeypair", "-alias", ALIAS, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-keystore", keystore.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
        return new KafkaBroker.Secured(keystore, PASSWORD);
    }

    /** The keystore's certificate, in PEM, beside it. */
    static Path certificate(KafkaBroker.Secured secured) throws Exception {
        Path pem = secured.keystore().resolveSibling("ca.crt");
        Files.deleteIfExists(pem);
        keytool("-exportcert", "-rfc", "-alias", ALIAS, "-keystore", secured.keystore().toString(), "-storetype",
                "PKCS12", "-storepass", PASSWORD, "-file", pem.toString());
        return pem;
    }

    private static void keytool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("keytool " + arguments[0] + " failed: " + output);
        }
    }
}
