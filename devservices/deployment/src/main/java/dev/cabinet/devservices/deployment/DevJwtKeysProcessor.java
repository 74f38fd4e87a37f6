package dev.cabinet.devservices.deployment;

import io.quarkus.deployment.IsDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.smallrye.jwt.deployment.GeneratePersistentDevModeJwtKeysBuildItem;

/**
 * Keeps dev mode's JWT key pair across starts. With no key configured, smallrye-jwt generates an RSA key pair at every
 * dev-mode start, on the augmentation's critical path: 4.6 s of dev mode's start here, whose JVM compiles with C1 only,
 * where RSA's big-number arithmetic is slow (docs/dev-services.md). Asked to, it writes the pair to
 * {@code target/classes/dev.privateKey.pem} and {@code dev.publicKey.pem} once and reads it back afterwards; the
 * service's packaging leaves those files out ({@code quarkus.package.jar.user-configured-ignored-entries}). Tests keep
 * a pair in memory, as before.
 */
class DevJwtKeysProcessor {

    @BuildStep(onlyIf = IsDevelopment.class)
    GeneratePersistentDevModeJwtKeysBuildItem keepDevModeKeyPair() {
        return new GeneratePersistentDevModeJwtKeysBuildItem();
    }
}
