package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The native Dockerfiles' build commands rely on service/pom.xml's {@code native} profile as Quarkus projects carry
 * it: {@code -Dnative} turns the native build on, and its output is the {@code *-runner} the images copy. (Nothing
 * here can compile it: no GraalVM, no container runtime.)
 */
class NativeProfileTest {

    private static final Path POM = Path.of("pom.xml");

    @Test
    void theNativeProfileIsActivatedByTheNativePropertyAndEnablesTheNativeBuildAndItsTests() throws Exception {
        Element profile = nativeProfile();
        Element activation = child(child(profile, "activation"), "property");
        assertEquals("native", text(activation, "name"));
        assertEquals(0, activation.getElementsByTagName("value").getLength(), "any -Dnative activates it");

        Element properties = child(profile, "properties");
        assertEquals("true", text(properties, "quarkus.native.enabled"));
        assertEquals("false", text(properties, "skipITs"));

        Map<String, String> failsafe = new HashMap<>();
        NodeList plugins = profile.getElementsByTagName("plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            Element plugin = (Element) plugins.item(i);
            if (text(plugin, "artifactId").equals("maven-failsafe-plugin")) {
                Element variables = child(child(plugin, "configuration"), "systemPropertyVariables");
                for (Node node = variables.getFirstChild(); node != null; node = node.getNextSibling()) {
                    if (node instanceof Element variable) {
                        failsafe.put(variable.getTagName(), variable.getTextContent().trim());
                    }
                }
            }
        }
        assertEquals("${project.build.directory}/${project.build.finalName}-runner", failsafe.get("native.image.path"),
                "@QuarkusIntegrationTest runs the native executable");
    }

    @ParameterizedTest
    @ValueSource(strings = { "Dockerfile.native", "Dockerfile.native-micro" })
    void theNativeImagesBuildWithTheProfileAndCopyWhatItWrites(String file) throws Exception {
        ImageDockerfile dockerfile = ImageDockerfile.read(file);
        String build = dockerfile.buildCommand();
        assertTrue(build.startsWith("./mvnw -pl devservices/deployment,devservices/runtime-dev,service -am package") && build.contains(" -Dnative"), build);

        String copied = dockerfile.copySources().stream().filter(source -> source.startsWith("target/"))
                .findFirst().orElseThrow();
        // what the profile writes: <finalName>-runner in target/ (finalName is artifactId-version)
        Document pom = pom();
        String finalName = text(pom.getDocumentElement(), "artifactId") + "-"
                + text(child(pom.getDocumentElement(), "parent"), "version");
        assertTrue(FileSystems.getDefault().getPathMatcher("glob:" + copied)
                .matches(Path.of("target", finalName + "-runner")), copied + " copies the native executable");
    }

    private static Element nativeProfile() throws Exception {
        NodeList profiles = pom().getElementsByTagName("profile");
        for (int i = 0; i < profiles.getLength(); i++) {
            Element profile = (Element) profiles.item(i);
            if (text(profile, "id").equals("native")) {
                return profile;
            }
        }
        throw new AssertionError("service/pom.xml has no native profile");
    }

    private static Document pom() throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(POM.toFile());
    }

    /** The first direct child element of this name. */
    private static Element child(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element;
            }
        }
        throw new AssertionError("no <" + name + "> in <" + parent.getTagName() + ">");
    }

    private static String text(Element parent, String name) {
        return child(parent, name).getTextContent().trim();
    }
}
