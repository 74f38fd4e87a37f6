package dev.cabinet.devui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

/**
 * The packaged application (target/quarkus-app, as the image ships it) holds nothing of the Cabinet Dev UI page: no
 * JSON-RPC service (the extension's dev-only module), no web component, no deployment module. Quarkus adds those in dev
 * mode only.
 */
class DevUiAbsentFromProductionJarIT {

    private static final Path APP = Path.of("target", "quarkus-app");

    @Test
    void theProductionApplicationContainsNoCabinetDevUiClassOrResource() throws IOException {
        List<Path> jars;
        try (Stream<Path> files = Files.walk(APP)) {
            jars = files.filter(file -> file.toString().endsWith(".jar")).toList();
        }
        // The runtime extension itself is there: the check below looks where the dev-only parts would be.
        assertTrue(jars.stream().anyMatch(jar -> jar.getFileName().toString().contains("cabinet-devservices-0")),
                "the Dev Services runtime extension is missing from " + APP + ": is this the packaged application?");

        List<String> found = new ArrayList<>();
        for (Path jar : jars) {
            String name = jar.getFileName().toString();
            if (name.contains("cabinet-devservices-dev") || name.contains("cabinet-devservices-deployment")) {
                found.add(name);
            }
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                zip.stream().map(ZipEntry::getName)
                        .filter(entry -> entry.startsWith("dev/cabinet/devservices/devui/")
                                || entry.startsWith("dev/cabinet/devservices/deployment/")
                                || entry.contains("qwc-cabinet") || entry.contains("cabinet-styles.js"))
                        .forEach(entry -> found.add(name + "!" + entry));
            }
        }
        assertEquals(List.of(), found, "Cabinet Dev UI parts in the production application");
    }
}
