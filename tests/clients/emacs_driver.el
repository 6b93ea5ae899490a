;;; emacs_driver.el --- Emacs + eglot driver for tests/clients/test_emacs.py  -*- lexical-binding: t; -*-

;; Runs as `emacs -Q --batch -l emacs_driver.el'. Loads the repository's albedo-skills.el as a user's
;; init would (its folder on `load-path', then `require'), with Debian's eglot and, when the test asks,
;; markdown-mode. Files are opened and commands run by keystrokes (`execute-kbd-macro': C-x C-f, C-M-i,
;; M-x eglot-code-actions RET RET, M-.), so the command loop runs its hooks as for a user. What the user
;; ends up with (flymake's diagnostics, the line after completion, the buffer after the quick fix, the file
;; M-. opened) is written as JSON. Every wait is on a condition (process output); the bound only turns a
;; hang into a recorded failure. Parameters: JSON in the file named by $ALBEDO_EMACS_PARAMS.

(load (expand-file-name "emacs_driver_common.el" (file-name-directory load-file-name)) nil t)

(defun visit (path)
  "C-x C-f PATH RET, as typed."
  (keys '("C-x C-f") path '("RET"))
  (current-buffer))

(defun buffer-diagnostics ()
  "Flymake's diagnostics in this buffer, as the user sees them: (code line column text)."
  (flymake-start nil t) ; flymake starts on an idle timer, which batch mode never reaches
  (vconcat  ; a vector: json-encode would take a list of plists for an object
   (mapcar (lambda (d)
            (let ((start (flymake-diagnostic-beg d)))
              (list :text (flymake-diagnostic-text d)
                    :type (symbol-name (flymake-diagnostic-type d))
                    :line (line-number-at-pos start)
                    :column (save-excursion (goto-char start) (current-column)))))
          (flymake-diagnostics))))

(defun diagnostics-matching (regexp)
  (cl-remove-if-not (lambda (d) (string-match-p regexp (plist-get d :text))) (append (buffer-diagnostics) nil)))

(defun line-text () (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

(defun complete-typed (text)
  "On a new last line type TEXT then C-M-i (`completion-at-point'); the line the user ends up with."
  (goto-char (point-max))
  (unless (bolp) (keys '("RET")))
  (keys text '("C-M-i"))
  (line-text))

(defun run-session ()
  (require 'albedo-skills)
  (require 'eglot)
  (require 'flymake)
  (driver-note 'markdown_mode (if (featurep 'markdown-mode) t :json-false))
  (driver-note 'parent_mode (symbol-name (get 'albedo-skills-file-mode 'derived-mode-parent)))
  (let (catalogs)
    (add-hook 'albedo-skills-catalog-changed-functions (lambda (params) (push params catalogs)))

    ;; 1. a SKILL.md whose name is not its folder's: the server starts, diagnostics reach flymake
    (let ((buffer (visit (param 'bad))))
      (driver-note 'bad_mode (symbol-name major-mode))
      (driver-note 'bad_managed (wait-until (lambda () (bound-and-true-p eglot--managed-mode))))
      (driver-note 'project_root (and (project-current) (expand-file-name (project-root (project-current)))))
      (driver-note 'bad_ready (wait-until (lambda () (with-current-buffer buffer (diagnostics-matching "wrong")))))
      (driver-note 'bad_diagnostics (buffer-diagnostics))
      (driver-note 'catalog_announced (wait-until (lambda () catalogs))))

    ;; 2. the losing twin: a collision is only seen with the workspace (not the skill folder) as the root
    (let ((buffer (visit (param 'twin))))
      (driver-note 'twin_ready (wait-until (lambda () (with-current-buffer buffer (diagnostics-matching "twin")))))
      (driver-note 'twin_diagnostics (buffer-diagnostics)))

    ;; 3. a quick fix: M-x eglot-code-actions RET, then RET takes the default (the preferred fix)
    (let ((buffer (visit (param 'fixme))))
      (driver-note 'fixme_ready (wait-until (lambda () (with-current-buffer buffer (diagnostics-matching "desciption")))))
      (goto-char (point-min))
      (search-forward "desciption")
      (let ((tick (buffer-chars-modified-tick)))
        (keys '("M-x") "eglot-code-actions" '("RET") '("RET"))
        (driver-note 'fix_applied (wait-until (lambda () (> (buffer-chars-modified-tick) tick)))))
      (driver-note 'fixme_after (vconcat (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n"))))

    ;; 4. a chat file: completion by C-M-i, then M-. over a command opens its SKILL.md
    (let ((buffer (visit (param 'chat))))
      (driver-note 'chat_mode (symbol-name major-mode))
      (driver-note 'chat_managed (wait-until (lambda () (with-current-buffer buffer (bound-and-true-p eglot--managed-mode)))))
      (driver-note 'completed_prefix (complete-typed "/goo"))
      (driver-note 'completed_argument (complete-typed "/reload se"))
      (complete-typed "/good now")
      (beginning-of-line)
      (forward-char 2)
      (keys '("M-."))
      (driver-note 'definition_opened (wait-until (lambda () (equal (buffer-file-name) (param 'good)))))
      (driver-note 'definition (list :path (buffer-file-name) :line (line-number-at-pos) :column (current-column))))

    ;; 5. M-x albedo-skills-reload: the server announces a new catalog
    (let ((before (length catalogs)))
      (keys '("M-x") "albedo-skills-reload" '("RET"))
      (driver-note 'reloaded (wait-until (lambda () (> (length catalogs) before))))
      (driver-note 'last_reason (plist-get (car catalogs) :reason)))
    (driver-note 'catalogs (length catalogs))))

(driver-finish #'run-session)
