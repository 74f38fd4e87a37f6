package dev.cabinet.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.javadoc.description.JavadocDescriptionElement;
import com.github.javaparser.javadoc.description.JavadocInlineTag;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import io.smallrye.config.WithParentName;

/**
 * Cabinet's settings as its config mappings declare them (name, default, meaning from the method's Javadoc), with the
 * values application.properties gives them by profile: what docs/configuration.md's table is generated from.
 */
public final class ConfigurationDocument {

    static final Path CLASSES = Path.of("target", "classes");
    static final Path SOURCES = Path.of("src", "main", "java");
    static final Path PROPERTIES = Path.of("src", "main", "resources", "application.properties");
    static final String BEGIN = "<!-- generated from the config mappings by ConfigurationDocumentTest: do not edit -->";
    static final String END = "<!-- end of the generated table -->";
    private static final JavaParser PARSER = new JavaParser(new ParserConfiguration()
            .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17));

    /** One setting: its full name, the mapping that declares it, its default there (if any), its meaning. */
    public record Setting(String name, Class<?> mapping, Optional<String> mappedDefault, boolean optional,
            String meaning) {
    }

    /** One line of application.properties: the profiles it applies to (none: every profile), the name and the value. */
    record Line(List<String> profiles, String name, String value) {
    }

    private ConfigurationDocument() {
    }

    /** Every {@link ConfigMapping} interface among the compiled main classes, by prefix. */
    static List<Class<?>> mappings() {
        return mainClasses().stream()
                .filter(type -> type.isInterface() && type.isAnnotationPresent(ConfigMapping.class))
                .sorted(Comparator.comparing(type -> type.getAnnotation(ConfigMapping.class).prefix()))
                .collect(Collectors.toList());
    }

    /** Every main class, loaded without initialising it. */
    static List<Class<?>> mainClasses() {
        try (Stream<Path> files = Files.walk(CLASSES)) {
            return files.filter(file -> file.toString().endsWith(".class")).map(ConfigurationDocument::load)
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Class<?> load(Path file) {
        String name = CLASSES.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
        try {
            return Class.forName(name.substring(0, name.length() - ".class".length()), false,
                    ConfigurationDocument.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The settings of every mapping, by name. */
    public static List<Setting> settings() {
        List<Setting> settings = new ArrayList<>();
        for (Class<?> mapping : mappings()) {
            collect(mapping.getAnnotation(ConfigMapping.class).prefix(), mapping, settings);
        }
        settings.sort(Comparator.comparing(Setting::name));
        return settings;
    }

    private static void collect(String prefix, Class<?> group, List<Setting> into) {
        Map<String, String> javadoc = javadoc(group, prefix);
        for (Method method : group.getDeclaredMethods()) {
            if (method.isDefault() || Modifier.isStatic(method.getModifiers()) || method.getParameterCount() > 0
                    || method.isSynthetic()) {
                continue;
            }
            String name = method.isAnnotationPresent(WithParentName.class) ? prefix
                    : prefix + "." + (method.isAnnotationPresent(WithName.class)
                            ? method.getAnnotation(WithName.class).value() : kebab(method.getName()));
            Class<?> type = method.getReturnType();
            if (type.isInterface() && type.getName().startsWith("dev.cabinet.")) {
                collect(name, type, into);
                continue;
            }
            boolean map = Map.class.isAssignableFrom(type);
            if (map) {
                name = name + ".\"<name>\"";
            }
            Optional<String> mappedDefault = Optional.ofNullable(method.getAnnotation(WithDefault.class))
                    .map(WithDefault::value);
            boolean optional = map || type.getName().startsWith("java.util.Optional");
            into.add(new Setting(name, group, mappedDefault, optional, javadoc.getOrDefault(method.getName(), "")));
        }
    }

    /** {@code eventsInFlight} becomes {@code events-in-flight}, as SmallRye Config names a mapping's properties. */
    static String kebab(String method) {
        StringBuilder name = new StringBuilder();
        for (char c : method.toCharArray()) {
            if (Character.isUpperCase(c)) {
                name.append('-').append(Character.toLowerCase(c));
            } else {
                name.append(c);
            }
        }
        return name.toString();
    }

    /** The Javadoc of each method of a mapping interface (nested ones included), as one line of Markdown. */
    private static Map<String, String> javadoc(Class<?> type, String prefix) {
        Class<?> top = type;
        while (top.getEnclosingClass() != null) {
            top = top.getEnclosingClass();
        }
        Path source = SOURCES.resolve(top.getName().replace('.', '/') + ".java");
        CompilationUnit unit;
        try {
            unit = PARSER.parse(Files.readString(source, StandardCharsets.UTF_8)).getResult()
                    .orElseThrow(() -> new IllegalStateException("could not parse " + source));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> byMethod = new LinkedHashMap<>();
        unit.findAll(MethodDeclaration.class).stream()
                .filter(method -> method.getParentNode()
                        .flatMap(parent -> parent instanceof ClassOrInterfaceDeclaration declaration
                                ? declaration.getFullyQualifiedName() : Optional.empty())
                        .map(name -> name.equals(type.getCanonicalName())).orElse(false))
                .forEach(method -> method.getJavadoc().ifPresent(doc -> byMethod.put(method.getNameAsString(),
                        markdown(doc.getDescription().getElements(), prefix))));
        return byMethod;
    }

    private static String markdown(List<JavadocDescriptionElement> elements, String prefix) {
        StringBuilder text = new StringBuilder();
        for (JavadocDescriptionElement element : elements) {
            if (element instanceof JavadocInlineTag tag) {
                String content = tag.getContent().trim();
                switch (tag.getType()) {
                    case CODE, LITERAL -> text.append('`').append(content).append('`');
                    case LINK, LINKPLAIN -> text.append('`').append(linkLabel(content, prefix)).append('`');
                    default -> text.append(content);
                }
            } else {
                text.append(element.toText());
            }
        }
        return text.toString().replaceAll("\\s+", " ").replace("|", "\\|").trim();
    }

    /**
     * A link to another setting of the same mapping ({@code #maxBackoff()}) becomes that setting's name; one to a class
     * its simple name ({@code dev.cabinet.table.Shards#of} becomes {@code Shards#of}); a label wins over both.
     */
    private static String linkLabel(String content, String prefix) {
        int space = content.indexOf(' ');
        if (space > 0) {
            return content.substring(space + 1).trim();
        }
        if (content.startsWith("#") && content.endsWith("()")) {
            return prefix + "." + kebab(content.substring(1, content.length() - 2));
        }
        String target = content;
        int hash = target.indexOf('#');
        String type = hash >= 0 ? target.substring(0, hash) : target;
        String member = hash >= 0 ? target.substring(hash) : "";
        return type.substring(type.lastIndexOf('.') + 1) + member;
    }

    /** application.properties line by line (continuations joined, comments and blank lines left out). */
    static List<Line> lines() {
        List<String> raw;
        try {
            raw = Files.readAllLines(PROPERTIES, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Line> lines = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        for (String line : raw) {
            if (pending.isEmpty() && (line.isBlank() || line.startsWith("#"))) {
                continue;
            }
            if (line.endsWith("\\")) {
                pending.append(line, 0, line.length() - 1);
                continue;
            }
            pending.append(pending.isEmpty() ? line : line.stripLeading());
            String entry = pending.toString();
            pending.setLength(0);
            int equals = entry.indexOf('=');
            String key = entry.substring(0, equals).trim();
            String value = entry.substring(equals + 1).trim();
            List<String> profiles = List.of();
            if (key.startsWith("%")) {
                int dot = key.indexOf('.');
                profiles = List.of(key.substring(1, dot).split(","));
                key = key.substring(dot + 1);
            }
            lines.add(new Line(profiles, key, value));
        }
        return lines;
    }

    /** The Markdown table: one row per setting. */
    static String table(List<Setting> settings, List<Line> lines) {
        Map<String, List<Line>> byName = new TreeMap<>();
        lines.forEach(line -> byName.computeIfAbsent(line.name(), name -> new ArrayList<>()).add(line));
        StringBuilder table = new StringBuilder();
        table.append("| property | default | by profile | meaning |\n|---|---|---|---|\n");
        for (Setting setting : settings) {
            List<Line> set = byName.getOrDefault(setting.name(), List.of());
            Optional<String> unprofiled = set.stream().filter(line -> line.profiles().isEmpty()).map(Line::value)
                    .findFirst();
            String defaultValue = setting.mappedDefault().or(() -> unprofiled).map(value -> "`" + value + "`")
                    .orElse(setting.optional() ? "unset" : "required");
            String profiles = set.stream().filter(line -> !line.profiles().isEmpty())
                    .map(line -> String.join(", ", line.profiles()) + ": `" + line.value() + "`")
                    .collect(Collectors.joining("; "));
            table.append("| `").append(setting.name()).append("` | ").append(defaultValue).append(" | ")
                    .append(profiles).append(" | ").append(setting.meaning()).append(" |\n");
        }
        return table.toString();
    }

    /** The document with its generated table replaced by {@code table}. */
    static String withTable(String document, String table) {
        int begin = document.indexOf(BEGIN);
        int end = document.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException("docs/configuration.md has lost its markers: " + BEGIN + " ... " + END);
        }
        return document.substring(0, begin + BEGIN.length()) + "\n" + table + document.substring(end);
    }
}
