package dev.cabinet.iam;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import jakarta.inject.Singleton;

import dev.cabinet.iam.IamRole.Resource;
import dev.cabinet.role.Role;
import dev.cabinet.role.RoleConfig;

/**
 * Writes down, when {@code cabinet.iam.call-log} names a directory (the tests set it; production never does), each
 * distinct AWS operation this process makes and the roles of the class that made it, one line per call kind in
 * {@code calls-<pid>.txt}: {@code <roles> <action> <resource> <caller>}. {@code IamPoliciesIT} compares them with
 * {@link IamRole}.
 */
@Singleton
public class AwsCallLog {

    /** The setting that turns the log on. */
    public static final String PROPERTY = "cabinet.iam.call-log";

    private static final StackWalker STACK = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private final Optional<Path> file;
    private final Set<String> written = ConcurrentHashMap.newKeySet();

    private final String instance;

    AwsCallLog(CallLogConfig config, RoleConfig role) {
        this.file = config.callLog().map(d -> d.resolve("calls-" + ProcessHandle.current().pid() + ".txt"));
        this.instance = role.role().label();
    }

    /** A log that writes nothing down, for a client built outside the application (a unit test's). */
    public static AwsCallLog off() {
        return new AwsCallLog(Optional::empty, () -> Role.BOTH);
    }

    public boolean enabled() {
        return file.isPresent();
    }

    /** Records a call made now, on this thread, attributing it to the innermost {@link CallsAws} class on the stack. */
    public void record(String action, Resource resource) {
        if (file.isEmpty()) {
            return;
        }
        Class<?> caller = caller();
        String roles = caller == null || caller.getAnnotation(CallsAws.class) == null ? "-"
                : Arrays.stream(caller.getAnnotation(CallsAws.class).value()).map(Enum::name).sorted()
                        .collect(Collectors.joining(","));
        String line = roles + " " + action + " " + resource.label() + " " + (caller == null ? "-" : caller.getName())
                + " " + instance + "\n";
        if (written.add(line)) {
            try {
                Files.createDirectories(file.get().getParent());
                synchronized (this) {
                    Files.writeString(file.get(), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The innermost class marked {@link CallsAws}, else the innermost of Cabinet's own classes, else null. */
    private static Class<?> caller() {
        return STACK.walk(frames -> {
            Class<?> cabinet = null;
            for (var iterator = frames.iterator(); iterator.hasNext();) {
                Class<?> type = iterator.next().getDeclaringClass();
                while (type.getEnclosingClass() != null) {
                    type = type.getEnclosingClass();
                }
                if (!type.getName().startsWith("dev.cabinet.") || type == AwsCallLog.class
                        || type.getName().startsWith("dev.cabinet.table.StoreCallMeter")) {
                    continue;
                }
                if (type.isAnnotationPresent(CallsAws.class)) {
                    return type;
                }
                if (cabinet == null) {
                    cabinet = type;
                }
            }
            return cabinet;
        });
    }
}
