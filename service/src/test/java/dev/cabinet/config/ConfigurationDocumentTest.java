package dev.cabinet.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.cabinet.config.ConfigurationDocument.Line;
import dev.cabinet.config.ConfigurationDocument.Setting;
import dev.cabinet.role.Role;
import dev.cabinet.role.RoleConfig;
import dev.cabinet.support.GeneratedFiles;
import io.smallrye.config.WithDefault;

/**
 * One place for each of Cabinet's settings: its config mapping, which names it, gives its default and says what it
 * means. docs/configuration.md's table is generated from the mappings (a run that finds it stale rewrites it),
 * application.properties restates no default and sets no Cabinet setting a mapping does not declare, and no class
 * reads a Cabinet setting around the mappings.
 */
class ConfigurationDocumentTest {

    static final Path DOCUMENT = Path.of("..", "docs", "configuration.md");
    /** Settings under cabinet. that are not the application's: the Dev Services extension's, and tracing's switch. */
    private static final List<String> NOT_MAPPED = List.of("cabinet.devservices.", "cabinet.tracing.");

    private final List<Setting> settings = ConfigurationDocument.settings();
    private final List<Line> lines = ConfigurationDocument.lines();

    @Test
    void theDocumentsTableIsTheMappings() throws IOException {
        String document = Files.readString(DOCUMENT, StandardCharsets.UTF_8);
        GeneratedFiles.check(DOCUMENT, ConfigurationDocument.withTable(document,
                ConfigurationDocument.table(settings, lines)));
    }

    @Test
    void everySettingSaysWhatItMeans() {
        assertEquals(List.of(), settings.stream().filter(setting -> setting.meaning().isBlank())
                .map(setting -> setting.name() + " (" + setting.mapping().getSimpleName() + ")").toList(),
                "settings without a Javadoc on their mapping's method");
    }

    @Test
    void applicationPropertiesRestatesNoDefaultAndSetsOnlyMappedSettings() {
        Map<String, Setting> byName = settings.stream()
                .collect(Collectors.toMap(Setting::name, Function.identity()));
        List<String> restated = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (Line line : lines) {
            if (!line.name().startsWith("cabinet.") || NOT_MAPPED.stream().anyMatch(line.name()::startsWith)) {
                continue;
            }
            Setting setting = byName.get(mapKey(line.name(), byName.keySet()));
            if (setting == null) {
                unknown.add(line.name());
            } else if (line.profiles().isEmpty() && setting.mappedDefault().isPresent()) {
                restated.add(line.name() + "=" + line.value() + " (the default of "
                        + setting.mapping().getSimpleName() + ": " + setting.mappedDefault().get() + ")");
            }
        }
        assertEquals(List.of(), unknown, "application.properties sets settings no config mapping declares");
        assertEquals(List.of(), restated, "application.properties restates defaults the mappings give");
    }

    @Test
    void noClassReadsACabinetSettingAroundTheMappings() {
        List<String> around = new ArrayList<>();
        for (Class<?> type : ConfigurationDocument.mainClasses()) {
            Stream.of(type.getDeclaredFields()).forEach(field -> note(field, type.getName() + "." + field.getName(),
                    around));
            Stream.concat(Arrays.stream(type.getDeclaredConstructors()), Arrays.stream(type.getDeclaredMethods()))
                    .forEach(executable -> List.of(executable.getParameters()).forEach(parameter -> note(parameter,
                            type.getName() + (executable instanceof Constructor ? "" : "." + executable.getName())
                                    + "(" + parameter.getName() + ")", around)));
        }
        assertEquals(List.of(), around, "@ConfigProperty on a Cabinet setting: inject its config mapping instead");
    }

    /**
     * The role is read once before any mapping exists, by the config source that turns it into the channels' switches
     * ({@code RoleConfigSourceFactory}): absent there, it must mean what the mapping's default means.
     */
    @Test
    void theRolesEarlyReaderAgreesWithTheMappingsDefault() throws NoSuchMethodException {
        String mapped = RoleConfig.class.getMethod("role").getAnnotation(WithDefault.class).value();
        assertEquals(Role.parse(mapped), Role.parse(null));
    }

    private static void note(AnnotatedElement element, String where, List<String> into) {
        ConfigProperty property = element.getAnnotation(ConfigProperty.class);
        if (property != null && property.name().startsWith("cabinet.")) {
            into.add(where + ": " + property.name());
        }
    }

    /** A map's entry ({@code cabinet.events.write-version."x"}) stands for its setting's placeholder name. */
    private static String mapKey(String name, Set<String> names) {
        if (names.contains(name)) {
            return name;
        }
        return names.stream().filter(candidate -> candidate.endsWith(".\"<name>\"")
                && name.startsWith(candidate.substring(0, candidate.length() - "\"<name>\"".length()))).findFirst()
                .orElse(name);
    }
}
