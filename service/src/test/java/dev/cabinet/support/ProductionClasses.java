package dev.cabinet.support;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * Cabinet's production classes as ArchUnit imports them, imported once per test JVM: an import parses every class and
 * resolves what they use from the class path, several seconds of CPU, and five tests asked for one each (in a JFR
 * profile of the test JVM, ArchUnit was 8% of its CPU).
 */
public final class ProductionClasses {

    private static JavaClasses classes;

    private ProductionClasses() {
    }

    /** The classes of {@code dev.cabinet}, tests excluded. */
    public static synchronized JavaClasses all() {
        if (classes == null) {
            classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("dev.cabinet");
        }
        return classes;
    }

    /**
     * The class, loaded by the calling thread's context class loader: not {@link JavaClass#reflect()}, which keeps the
     * class it loaded first, from whichever loader the first test to ask had (a Quarkus test's differs from a plain
     * one's, and their classes do not compare equal).
     */
    public static Class<?> load(JavaClass type) {
        try {
            return Class.forName(type.getName(), false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(type.getName() + " was imported but does not load", e);
        }
    }
}
