package dev.cabinet.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of service/src/main/docker's Dockerfiles as a container would see it: the environment its {@code ENV} lines
 * set, the {@code docker run} command its usage header shows, and the command line the base image's entrypoint
 * composes from both ({@link RunJava}).
 */
public final class ImageDockerfile {

    public static final Path DIR = Path.of("src", "main", "docker");
    private static final Pattern RANDOM_BYTES = Pattern.compile("\\$\\(openssl rand -base64 (\\d+)\\)");
    private static final Pattern ASSIGNMENT = Pattern.compile("(\\w+)=(?:\"((?:[^\"\\\\]|\\\\.)*)\"|'([^']*)'|(\\S*))");

    private final String name;
    private final String text;

    private ImageDockerfile(String name, String text) {
        this.name = name;
        this.text = text;
    }

    /** The Java 25 runtime that Dockerfile.jvm25's step and entrypoint run on here: a JDK 25 of this machine. */
    public static final Path JDK25 = Path.of(System.getProperty("cabinet.jdk25.home",
            "/usr/lib/jvm/temurin-25-jdk-amd64"));

    /** The home of the JVM that runs the named image's Java here: a JDK 25 for Dockerfile.jvm25, else this JVM's. */
    public static Path javaHome(String name) {
        return name.startsWith("Dockerfile.jvm25") ? JDK25 : Path.of(System.getProperty("java.home"));
    }

    public static ImageDockerfile read(String name) {
        try {
            return of(name, Files.readString(DIR.resolve(name), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ImageDockerfile of(String name, String text) {
        return new ImageDockerfile(name, text);
    }

    public String name() {
        return name;
    }

    /** The variables its {@code ENV} lines set, in order (a later line wins, as in the image). */
    public Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        Matcher line = Pattern.compile("(?m)^ENV (.*)$").matcher(text.replace("\\\n", " "));
        while (line.find()) {
            Matcher assignment = ASSIGNMENT.matcher(line.group(1));
            while (assignment.find()) {
                String value = assignment.group(2) != null ? assignment.group(2).replaceAll("\\\\(.)", "$1")
                        : assignment.group(3) != null ? assignment.group(3) : assignment.group(4);
                env.put(assignment.group(1), value);
            }
        }
        return env;
    }

    /** The {@code docker run} command of the usage header. */
    public DockerRun run() {
        List<String> lines = text.lines().takeWhile(line -> line.startsWith("#")).map(line -> line.substring(1))
                .toList();
        StringBuilder command = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).trim().startsWith("docker run ")) {
                for (int j = i; j < lines.size(); j++) {
                    String line = lines.get(j).trim();
                    command.append(line.endsWith("\\") ? line.substring(0, line.length() - 1) : line).append(' ');
                    if (!line.endsWith("\\")) {
                        return DockerRun.parse(command.toString());
                    }
                }
            }
        }
        throw new IllegalStateException(name + " has no docker run command in its header");
    }

    /** The sources of its {@code COPY} lines, as written. */
    public List<String> copySources() {
        List<String> sources = new ArrayList<>();
        Matcher copy = Pattern.compile("(?m)^COPY (.*)$").matcher(text);
        while (copy.find()) {
            List<String> words = List.of(copy.group(1).trim().split("\\s+"));
            words.subList(0, words.size() - 1).stream().filter(word -> !word.startsWith("--")).forEach(sources::add);
        }
        return sources;
    }

    /** The header's command that builds what the image copies (its {@code ./mvnw} line). */
    public String buildCommand() {
        return text.lines().takeWhile(line -> line.startsWith("#")).map(line -> line.substring(1).trim())
                .filter(line -> line.startsWith("./mvnw ")).findFirst()
                .orElseThrow(() -> new IllegalStateException(name + " has no ./mvnw command in its header"));
    }

    /** What the entrypoint executes in a container of this image started with the header's command. */
    public RunJava.Command entrypointCommand() {
        return RunJava.compose(containerEnv(), List.of());
    }

    /**
     * The JVM options the entrypoint gives a container of this image (the header's settings and {@code extraEnv} on
     * top of the image's {@code ENV}), each container path replaced by its place on this machine
     * ({@link #onThisMachine}).
     */
    public List<String> entrypointJvmOptions(Map<String, String> extraEnv, Map<String, Path> paths) {
        Map<String, String> env = containerEnv();
        env.putAll(extraEnv);
        return RunJava.compose(env, List.of()).jvmOptions().stream().map(option -> onThisMachine(option, paths))
                .toList();
    }

    /**
     * A container path as this machine's, by the first of {@code paths} (container path to host path, most specific
     * first) it contains; an argument naming a container path none of them maps is refused.
     */
    public static String onThisMachine(String argument, Map<String, Path> paths) {
        for (Map.Entry<String, Path> path : paths.entrySet()) {
            if (argument.contains(path.getKey())) {
                return argument.replace(path.getKey(), path.getValue().toString());
            }
        }
        if (argument.contains("/deployments")) {
            throw new IllegalArgumentException("no place on this machine for the container path in " + argument);
        }
        return argument;
    }

    /**
     * The container's environment: the image's {@code ENV}, then the header's {@code -e} settings, each command
     * substitution run as the user's shell would ({@link #substituted}).
     */
    public Map<String, String> containerEnv() {
        Map<String, String> env = new LinkedHashMap<>(env());
        run().env().forEach((name, value) -> env.put(name, substituted(value)));
        return env;
    }

    /**
     * A header value with its command substitution done: {@code $(openssl rand -base64 N)} becomes N random bytes in
     * base64, as openssl would print them; any other substitution is refused rather than passed on as text.
     */
    static String substituted(String value) {
        Matcher random = RANDOM_BYTES.matcher(value);
        StringBuilder result = new StringBuilder();
        while (random.find()) {
            byte[] bytes = new byte[Integer.parseInt(random.group(1))];
            new SecureRandom().nextBytes(bytes);
            random.appendReplacement(result, Matcher.quoteReplacement(Base64.getEncoder().encodeToString(bytes)));
        }
        random.appendTail(result);
        if (result.indexOf("$(") >= 0 || result.indexOf("`") >= 0) {
            throw new IllegalArgumentException("a command substitution this test cannot run: " + value);
        }
        return result.toString();
    }

    /** A {@code docker run} command: its {@code -e} settings, {@code -v} mounts (container to host path), image. */
    public record DockerRun(Map<String, String> env, Map<String, String> mounts, String image) {

        static DockerRun parse(String command) {
            List<String> words = words(command);
            if (!words.subList(0, 2).equals(List.of("docker", "run"))) {
                throw new IllegalArgumentException("not a docker run command: " + command);
            }
            Map<String, String> env = new LinkedHashMap<>();
            Map<String, String> mounts = new LinkedHashMap<>();
            for (int i = 2; i < words.size(); i++) {
                String word = words.get(i);
                switch (word) {
                    case "-e" -> {
                        String[] setting = words.get(++i).split("=", 2);
                        env.put(setting[0], setting[1]);
                    }
                    case "-v" -> {
                        String[] mount = words.get(++i).split(":");
                        mounts.put(mount[1], mount[0]);
                    }
                    case "-p" -> i++;
                    default -> {
                        if (!word.startsWith("-")) {
                            return new DockerRun(env, mounts, word);
                        }
                    }
                }
            }
            throw new IllegalArgumentException("no image in " + command);
        }

        /**
         * Words as the shell splits them: a double-quoted part belongs to the word around it (NAME="a b" is one
         * word) and loses its quotes; nothing is expanded here.
         */
        static List<String> words(String command) {
            List<String> words = new ArrayList<>();
            Matcher word = Pattern.compile("(?:\"[^\"]*\"|[^\\s\"])+").matcher(command);
            while (word.find()) {
                words.add(word.group().replace("\"", ""));
            }
            return words;
        }
    }
}
