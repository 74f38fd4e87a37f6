package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local overlay image's Dockerfile, read as its header says it is built: the README's local section builds and loads
 * it with the header's commands, and the overlay's manifest runs the image built.
 */
record LocalImage(String text, Path context, String tag) {

    static final Path ROOT = Path.of("..");

    /** The image the local overlay's {@code name}.yaml runs, built from its {@code name}/Dockerfile. */
    static LocalImage of(String name) throws IOException {
        String dockerfile = "deploy/k8s/overlays/local/" + name + "/Dockerfile";
        String manifest = "deploy/k8s/overlays/local/" + name + ".yaml";
        String text = Files.readString(ROOT.resolve(dockerfile), StandardCharsets.UTF_8);
        Matcher build = Pattern.compile("(?m)^#\\s+(docker build -f (\\S+) -t (\\S+) (\\S+))$").matcher(text);
        assertTrue(build.find(), dockerfile + "'s header shows how to build the image");
        assertEquals(ROOT.resolve(dockerfile).normalize(), ROOT.resolve(build.group(2)).normalize());
        String readme = Files.readString(ROOT.resolve("deploy/k8s/README.md"), StandardCharsets.UTF_8);
        assertTrue(readme.contains(build.group(1)), "deploy/k8s/README.md builds the image as its header says");
        assertTrue(readme.contains("kind load docker-image " + build.group(3)), "and loads it into kind");
        assertTrue(Files.readString(ROOT.resolve(manifest)).contains("image: " + build.group(3)),
                "the local overlay runs the image built");
        return new LocalImage(text, ROOT.resolve(build.group(4)), build.group(3));
    }

    /** The one group of the Dockerfile's line that matches {@code regex} as a whole. */
    String single(String regex) {
        Matcher matcher = Pattern.compile("(?m)^" + regex + "$").matcher(text);
        assertTrue(matcher.find(), "no line " + regex);
        return matcher.group(1);
    }
}
