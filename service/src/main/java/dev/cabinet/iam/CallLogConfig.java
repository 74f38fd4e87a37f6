package dev.cabinet.iam;

import java.nio.file.Path;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;

/** Where {@link AwsCallLog} writes down the AWS operations this instance makes (tests only). */
@ConfigMapping(prefix = "cabinet.iam")
public interface CallLogConfig {

    /**
     * Tests only: a directory where each AWS operation made is written down with the roles of its caller, for
     * {@code IamPoliciesIT} to compare with the IAM policies; unset, nothing is written.
     */
    Optional<Path> callLog();
}
