;;; emacs_settings_probe.el --- What eglot sends albedo-skills-ls, for test_settings_sent.py  -*- lexical-binding: t; -*-

;; Runs as `emacs -Q --batch -l emacs_settings_probe.el'. Loads albedo-skills.el as a user's init would, with
;; the settings the test gives (`settings_form', an Emacs Lisp plist; none: the package left as installed),
;; opens one SKILL.md by C-x C-f, waits until the server has announced its catalog (it asks for the
;; settings before it discovers), then shuts the server down. The server runs behind tests/clients/lsp_tap.py,
;; which records what eglot sent. Parameters: JSON in the file named by $ALBEDO_EMACS_PARAMS.

(load (expand-file-name "emacs_driver_common.el" (file-name-directory load-file-name)) nil t)

(defun run-session ()
  (require 'albedo-skills)
  (require 'eglot)
  (when (param 'settings_form)
    (setq albedo-skills-settings (car (read-from-string (param 'settings_form)))))
  (let (catalogs)
    (add-hook 'albedo-skills-catalog-changed-functions (lambda (params) (push params catalogs)))
    (keys '("C-x C-f") (param 'file) '("RET"))
    (driver-note 'mode (symbol-name major-mode))
    (driver-note 'announced (wait-until (lambda () catalogs)))))

(driver-finish #'run-session)
