package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The AppCDS step of Dockerfile.jvm, run as written (its /deployments being the packaged target/quarkus-app) on this
 * JVM: it must end by itself, connecting to nothing, and leave an archive that a JVM started with the options the
 * image's entrypoint gives it (RunJava) and {@code -Xshare:on} (which refuses to run without it) loads the
 * application's classes from.
 */
class ClassDataArchiveIT {

    private static final Path OUT = Path.of("target", "class-data-it").toAbsolutePath();

    @Test
    void theImagesArchiveStepEndsByItselfAndItsArchiveIsUsed() throws Exception {
        ImageArchiveStep step = new ImageArchiveStep(OUT.resolve("app-cds.jsa"));

        assertEquals(0, step.archive(OUT.resolve("archive.log")), "the archive step failed; see archive.log");
        assertTrue(Files.size(step.archive()) > 0, "no archive written at " + step.archive());

        Path log = OUT.resolve("use.log");
        // with the options the image's entrypoint starts the JVM with (its collector among them), then -Xshare:on
        List<String> options = new ArrayList<>(ImageDockerfile.read("Dockerfile.jvm").entrypointJvmOptions(Map.of(),
                Map.of("/deployments/app-cds.jsa", step.archive())));
        options.addAll(List.of("-Xshare:on", "-Xlog:class+load=info"));
        assertEquals(0, step.startFromArchive(options, log),
                "a JVM could not start from the archive; see use.log");
        long fromArchive = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                .filter(line -> line.contains("dev.cabinet.") && line.contains("shared objects file (top)")).count();
        assertTrue(fromArchive > 100, "only " + fromArchive + " of Cabinet's classes came from the archive");
    }
}
