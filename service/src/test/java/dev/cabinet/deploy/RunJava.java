package dev.cabinet.deploy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The command line that the entrypoint of the UBI 9 OpenJDK runtime images, {@code run-java.sh}, composes from the
 * container's environment: a pure function of it, so that tests and the benchmark start the packaged application
 * exactly as the image does.
 *
 * <p>The rules are those of rh-openjdk/redhat-openjdk-containers (the repository jboss-container-images/openjdk moved
 * to; its last ubi9 commit d708f1b5 has the same scripts), branch ubi9 at 7b635be6a7d8 (2025-02-17), whose image
 * descriptor says 1.21: {@code modules/run/.../run-java.sh}, {@code modules/jvm/.../java-default-options} and
 * {@code debug-options}. The stored copy of that repository holds no later version; the scripts did not change
 * between the 1.20 tag and that commit, and the image we use is 1.23. What they do, in order:
 * <ol>
 * <li>{@code JAVA_OPTS}, if set at all (even empty), replaces every generated option and {@code JAVA_OPTS_APPEND};
 * <li>otherwise the options are the debug options ({@code JAVA_DEBUG} non-empty: a JDWP agent on
 * {@code JAVA_DEBUG_PORT}, 5005), the proxy options, {@code java-default-options}, then {@code JAVA_OPTS_APPEND};
 * <li>{@code java-default-options}: {@code -XX:MaxRAMPercentage=} {@code JAVA_MAX_MEM_RATIO} rounded as
 * {@code printf "%.0f.0"} does (80.0 when unset or empty, nothing when "0"); no initial heap option;
 * {@code GC_CONTAINER_OPTIONS} (default {@code -XX:+UseParallelGC}); {@code -XX:MinHeapFreeRatio} (10),
 * {@code MaxHeapFreeRatio} (20), {@code GCTimeRatio} (4), {@code AdaptiveSizePolicyWeight} (90) from their
 * {@code GC_*} variables; {@code MaxMetaspaceSize} and {@code MetaspaceSize} (clamped to the maximum) only when set;
 * {@code -XX:+ExitOnOutOfMemoryError};
 * <li>the options are split on white space, unquoted (quotes inside {@code JAVA_OPTS_APPEND} stay literal), followed
 * by {@code -cp .} ({@code .:JAVA_LIB_DIR} when that differs from {@code JAVA_APP_DIR}), {@code -jar JAVA_APP_JAR}
 * and the script's own arguments; the working directory is {@code JAVA_APP_DIR} ({@code /deployments}).
 * </ol>
 * {@code JAVA_ARGS} is not read by run-java.sh (only the S2I {@code run} script passes it as arguments), and a
 * Dockerfile that sets its own ENTRYPOINT clears the base image's CMD, so there are no script arguments. What these
 * Dockerfiles never use (proxies, diagnostics, a main class, an undetected jar) is refused rather than guessed.
 */
public final class RunJava {

    /** Where the rules were read, for messages and the record. */
    public static final String SOURCE = "rh-openjdk/redhat-openjdk-containers ubi9@7b635be6a7d8 (image version 1.21)";

    private RunJava() {
    }

    /** The command ({@code java} first) and the directory it runs in, with the container's paths. */
    public record Command(List<String> arguments, String workingDirectory) {

        /** The JVM options: everything between {@code java} and the class path. */
        public List<String> jvmOptions() {
            return arguments.subList(1, arguments.indexOf("-cp"));
        }

        /** The options that choose a garbage collector. */
        public List<String> collectors() {
            return jvmOptions().stream().filter(option -> option.matches("-XX:\\+Use\\w+GC")).toList();
        }
    }

    /** The command run-java.sh executes in an environment of these variables, given these script arguments. */
    public static Command compose(Map<String, String> env, List<String> scriptArguments) {
        for (String unsupported : List.of("JAVA_MAIN_CLASS", "JAVA_CLASSPATH", "JAVA_DIAGNOSTICS", "http_proxy",
                "https_proxy", "no_proxy")) {
            if (!env.getOrDefault(unsupported, "").isEmpty()) {
                throw new IllegalArgumentException(unsupported + " is not modelled (" + SOURCE + ")");
            }
        }
        String appDir = nonEmpty(env, "JAVA_APP_DIR", "/deployments");
        String libDir = nonEmpty(env, "JAVA_LIB_DIR", appDir);
        String jar = env.getOrDefault("JAVA_APP_JAR", "");
        if (jar.isEmpty()) {
            throw new IllegalArgumentException("JAVA_APP_JAR is unset: the jar auto-detection is not modelled");
        }
        if (!jar.startsWith("/")) {
            jar = appDir + "/" + jar;
        }
        String options = env.containsKey("JAVA_OPTS") ? env.get("JAVA_OPTS")
                : String.join(" ", debugOptions(env), defaultOptions(env), env.getOrDefault("JAVA_OPTS_APPEND", ""));

        List<String> arguments = new ArrayList<>();
        arguments.add("java");
        for (String word : options.trim().split("\\s+")) {
            if (!word.isEmpty()) {
                arguments.add(word);
            }
        }
        arguments.addAll(List.of("-cp", libDir.equals(appDir) ? "." : ".:" + libDir, "-jar", jar));
        arguments.addAll(scriptArguments);
        return new Command(List.copyOf(arguments), appDir);
    }

    private static String debugOptions(Map<String, String> env) {
        if (env.getOrDefault("JAVA_DEBUG", "").isEmpty()) {
            return "";
        }
        return "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address="
                + nonEmpty(env, "JAVA_DEBUG_PORT", "5005");
    }

    /** java-default-options: max_memory, gc_config, diagnostics (off), error_handling. */
    private static String defaultOptions(Map<String, String> env) {
        List<String> options = new ArrayList<>();
        String ratio = env.getOrDefault("JAVA_MAX_MEM_RATIO", "");
        if (ratio.isEmpty()) {
            options.add("-XX:MaxRAMPercentage=80.0");
        } else if (!ratio.equals("0")) {
            // printf "%.0f.0": rounded half to even, as the C library's printf does
            options.add("-XX:MaxRAMPercentage=" + new BigDecimal(ratio).setScale(0, RoundingMode.HALF_EVEN) + ".0");
        }
        options.add(nonEmpty(env, "GC_CONTAINER_OPTIONS", "-XX:+UseParallelGC"));
        options.add("-XX:MinHeapFreeRatio=" + nonEmpty(env, "GC_MIN_HEAP_FREE_RATIO", "10"));
        options.add("-XX:MaxHeapFreeRatio=" + nonEmpty(env, "GC_MAX_HEAP_FREE_RATIO", "20"));
        options.add("-XX:GCTimeRatio=" + nonEmpty(env, "GC_TIME_RATIO", "4"));
        options.add("-XX:AdaptiveSizePolicyWeight=" + nonEmpty(env, "GC_ADAPTIVE_SIZE_POLICY_WEIGHT", "90"));
        String maxMetaspace = env.getOrDefault("GC_MAX_METASPACE_SIZE", "");
        if (!maxMetaspace.isEmpty()) {
            options.add("-XX:MaxMetaspaceSize=" + maxMetaspace + "m");
        }
        String metaspace = env.getOrDefault("GC_METASPACE_SIZE", "");
        if (!metaspace.isEmpty()) {
            if (!maxMetaspace.isEmpty() && Integer.parseInt(metaspace) > Integer.parseInt(maxMetaspace)) {
                metaspace = maxMetaspace;
            }
            options.add("-XX:MetaspaceSize=" + metaspace + "m");
        }
        options.add("-XX:+ExitOnOutOfMemoryError");
        return String.join(" ", options);
    }

    /** The shell's {@code ${NAME:-default}}: the default when unset or empty. */
    private static String nonEmpty(Map<String, String> env, String name, String otherwise) {
        String value = env.getOrDefault(name, "");
        return value.isEmpty() ? otherwise : value;
    }
}
